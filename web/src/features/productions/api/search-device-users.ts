import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET users`: the custodian picker of "New production" (a search names device users). */
export const searchDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');

/** Up to 20 device users whose reference, name or e-mail matches `search` (nothing is asked for below 2 letters). */
export function useDeviceUserSearch(search: string, enabled: boolean) {
  return useEndpointQuery(searchDeviceUsers, { query: { limit: '20', ...(search.length >= 2 ? { search } : {}) } }, { staleTime: 30_000, enabled });
}
