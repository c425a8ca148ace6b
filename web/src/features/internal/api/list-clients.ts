import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /clients`: every tenant the provider serves. */
export const listClients = endpointOf(licenceEndpoints, 'internal.clients.list');

export function useClients() {
  return useCursorList(listClients, { query: {} });
}
