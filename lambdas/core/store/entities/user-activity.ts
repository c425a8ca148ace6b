import type * as z from 'zod';
import { UserActivity } from '#shared/contract/entities/activity.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { claimItem, readItem } from './read-item.ts';

/**
 * One portal user's or client app's API call (`keys.userActivity`), as the activity list reads it: the contract's
 * `UserActivity`. The audit trail writes these records and chains them (lambdas/audit/trail); its chain attributes
 * are the trail's own and are not read here. A record is append-only and may predate a contract change, so the list
 * claims it (`claimedUserActivity`) and leaves out, with a log line, one it cannot read; verifyChain reports it.
 */
export const UserActivityItem = UserActivity;
export type UserActivityItem = z.infer<typeof UserActivityItem>;

export function readUserActivity(item: TableItem): UserActivityItem {
  return readItem('UserActivity', UserActivityItem, item);
}

/** The record a stored item claims, or undefined when it does not read as one. */
export function claimedUserActivity(item: TableItem): UserActivityItem | undefined {
  return claimItem(UserActivityItem, item);
}

/** The call as the API answers it. */
export function toUserActivity(stored: UserActivityItem): UserActivity {
  return stored;
}
