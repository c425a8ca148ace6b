import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET activities`: every call made by a portal user, a client app or staff in support mode (append-only). */
export const listUserActivity = endpointOf(auditEndpoints, 'admin.activities.list');
export type UserActivityQuery = NonNullable<CallInput<typeof listUserActivity>['query']>;

export function useUserActivity(query: UserActivityQuery, enabled: boolean) {
  return useCursorList(listUserActivity, { query }, { enabled });
}
