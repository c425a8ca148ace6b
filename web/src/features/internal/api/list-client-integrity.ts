import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { integrityEndpoints } from '#shared/contract/endpoints/integrity.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET /clients/{client}/integrity` (staff): a client's latest fixity runs, newest first. */
export const listClientIntegrity = endpointOf(integrityEndpoints, 'internal.clients.integrity.list');

export function useClientIntegrity(client: string, enabled: boolean) {
  return useEndpointQuery(listClientIntegrity, { client }, { enabled });
}
