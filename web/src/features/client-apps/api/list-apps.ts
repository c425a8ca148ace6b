import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET account/apps`: the client apps (machine access) of this client. */
export const listApps = endpointOf(accessEndpoints, 'admin.apps.list');

export function useApps() {
  return useCursorList(listApps, { query: {} });
}
