import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET activities`: the portal user picker's suggestions, who used the portal lately, from the user activity trail. */
export const listUserActivity = endpointOf(auditEndpoints, 'admin.activities.list');

/**
 * Portal users seen in the latest 100 user activity records (people only: no client apps, no provider staff), for the
 * picker to suggest. Portal users have no list of their own; the trail names each by the reference a hold takes.
 */
export function useRecentPortalUsers(enabled: boolean) {
  const activity = useEndpointQuery(listUserActivity, { query: { limit: '100' } }, { enabled, staleTime: 60_000 });
  const rows = activity.data && 'data' in activity.data ? activity.data.data : [];
  return [...new Set(rows.filter((row) => !row.is_client_app && !row.user_id.includes(':')).map((row) => row.user_id))].sort();
}
