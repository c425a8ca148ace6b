import type * as z from 'zod';
import { UserActivity } from '#shared/contract/entities/activity.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { trailPartition, PENDING_INDEX } from './audit-chain.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';
import { activityChainKeys } from './audit-chain.ts';

/** Named indexes of a user activity record (the pending list is the audit chain's: audit-chain.ts). */
export const USER_ACTIVITY_INDEXES = { byTenantTime: 'gsi1', ...PENDING_INDEX, byPerson: 'gsi3' } as const;

/**
 * A portal user's or client app's call (`UserActivity`): its own item, time-ordered in the trail's partition, and
 * on byTenantTime `C#<c>#USER_ACTIVITY#BY_TIME` for `GET activities` (the same index partition the list has always read).
 */
export const userActivityKeys = {
  item: (client: string, activityTime: Date | string, logId: string, userId?: string): ItemKeys => ({
    pk: trailPartition('user', client),
    sk: timeSort(activityTime, logId),
    entity: ENTITY.userActivity,
    ...onIndex[USER_ACTIVITY_INDEXES.byTenantTime](`${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`, timeSort(activityTime, logId)),
    // Also listed under the person who called: a legal hold's coverage.
    ...(userId === undefined ? {} : onIndex[USER_ACTIVITY_INDEXES.byPerson](personPartition(client, userId), timeSort(activityTime, logId))),
  }),
  /** One person's records (`user_id`), by activity time. */
  listByUser: (client: string, userId: string): ListKey => list(USER_ACTIVITY_INDEXES.byPerson, personPartition(client, userId)),
  /** The records newest or oldest first by activity time (a time range is a key condition on the ISO prefix). */
  list: (client: string): ListKey => list(USER_ACTIVITY_INDEXES.byTenantTime, `${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`),
};

const personPartition = (client: string, userId: string) => `${tenantPrefix(client)}PERSON#${part(userId)}#ACTIVITY`;

/**
 * One portal user's or client app's API call (`keys.userActivity`), as the activity list reads it: the contract's
 * `UserActivity`. The audit trail writes these records and chains them (lambdas/audit/trail); its chain attributes
 * are the trail's own and are not read here. A record is append-only and may predate a contract change, so the list
 * claims it (`claimedUserActivity`) and leaves out, with a log line, one it cannot read; verifyChain reports it.
 */
export const userActivityItemSchema = /* @__PURE__ */ onFirstUse(() => UserActivity);
export type UserActivityItem = z.infer<ReturnType<typeof userActivityItemSchema>>;

export function readUserActivity(item: TableItem): UserActivityItem {
  return readItem('UserActivity', userActivityItemSchema(), item);
}

/** The record a stored item claims, or undefined when it does not read as one. */
export function claimedUserActivity(item: TableItem): UserActivityItem | undefined {
  return claimItem(userActivityItemSchema(), item);
}

/** The call as the API answers it. */
export function toUserActivity(stored: UserActivityItem): UserActivity {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const userActivityModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.userActivity,
  title: 'User activity record',
  module: 'user-activity.ts',
  indexes: USER_ACTIVITY_INDEXES,
  items: [
    {
      when: 'pending until linked; byPerson when the caller is named',
      example: () => ({
        ...userActivityKeys.item(EXAMPLE_CLIENT, '<activity_time>', '<log_id>', '<user_id>'),
        ...activityChainKeys.pendingKeys('user', EXAMPLE_CLIENT, '<activity_time>#<log_id>'),
      }),
    },
  ],
  accessPatterns: [
    { name: 'List user activity, by time', serves: '`GET activities` (from/to: key condition)', builders: ['keys.userActivity.list'], example: () => userActivityKeys.list(EXAMPLE_CLIENT) },
    {
      name: 'One person\'s calls, by time',
      serves: '`GET activities` filtered by person; what a legal hold on a portal user covers (`coverage`)',
      builders: ['keys.userActivity.listByUser'],
      example: () => userActivityKeys.listByUser(EXAMPLE_CLIENT, '<user_id>'),
    },
    {
      name: 'Records waiting to be linked, oldest first (the device trail\'s alike)',
      serves: 'the audit sequencer, `GET activities/chain`',
      builders: ['keys.activityChain.pending'],
      example: () => activityChainKeys.pending('user', EXAMPLE_CLIENT),
    },
    {
      name: 'Every record of a trail in time order (the device trail\'s alike)',
      serves: 'the retention job\'s indexing of the trails; `audit:verify`',
      builders: ['keys.activityChain.records'],
      example: () => activityChainKeys.records('user', EXAMPLE_CLIENT),
    },
  ],
}));
