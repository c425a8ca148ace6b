import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import type { CallInput } from '../../lib/api-client.ts';
import { useCursorList, useEndpointMutation, useEndpointQuery } from '../../lib/api-hooks.ts';

/** `GET account/legal_holds`: holds on device users and portal users, active and released. */
export const listLegalHolds = endpointOf(accountDataEndpoints, 'client.legal-holds.list');
/** `PUT account/legal_holds/{target_type}/{target}`: place a hold. */
export const placeLegalHold = endpointOf(accountDataEndpoints, 'client.legal-holds.put');
/** `DELETE account/legal_holds/{target_type}/{target}`: release it (kept as an inactive record). */
export const releaseLegalHold = endpointOf(accountDataEndpoints, 'client.legal-holds.delete');
/** The device user picker of "Place a hold". */
export const listDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');
/** The portal user picker's suggestions: who used the portal lately, from the user activity trail. */
export const listUserActivity = endpointOf(auditEndpoints, 'admin.activities.list');

export type LegalHoldQuery = NonNullable<CallInput<typeof listLegalHolds>['query']>;

/** A hold is syncing while its objects are still being locked or unlocked; the list asks again until it is done. */
export function useLegalHolds(query: LegalHoldQuery, isSyncing: (hold: LegalHold) => boolean) {
  return useCursorList(listLegalHolds, { query }, { pollWhile: isSyncing });
}

export function usePlaceLegalHold() {
  return useEndpointMutation(placeLegalHold, { invalidates: [listLegalHolds], formErrors: true });
}

export function useReleaseLegalHold() {
  return useEndpointMutation(releaseLegalHold, { invalidates: [listLegalHolds] });
}

/** Up to 20 device users whose reference, name or e-mail matches `search` (nothing is asked for below 2 letters). */
export function useDeviceUserSearch(search: string) {
  return useEndpointQuery(listDeviceUsers, { query: { limit: '20', ...(search.length >= 2 ? { search } : {}) } }, { staleTime: 30_000 });
}

/**
 * Portal users seen in the latest 100 user activity records (people only: no client apps, no provider staff), for the
 * picker to suggest. Portal users have no list of their own; the trail names each by the reference a hold takes.
 */
export function useRecentPortalUsers(enabled: boolean) {
  const activity = useEndpointQuery(listUserActivity, { query: { limit: '100' } }, { enabled, staleTime: 60_000 });
  const rows = activity.data && 'data' in activity.data ? activity.data.data : [];
  return [...new Set(rows.filter((row) => !row.is_client_app && !row.user_id.includes(':')).map((row) => row.user_id))].sort();
}
