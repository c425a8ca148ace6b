import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /clients/{client}/roles` (staff): the roles a support request may ask for. */
export const listClientRoles = endpointOf(accessEndpoints, 'internal.clients.roles.list');

export function useClientRoles(client: string) {
  return useCursorList(listClientRoles, { client, query: { limit: '100' } }, { enabled: client.trim().length > 0 });
}
