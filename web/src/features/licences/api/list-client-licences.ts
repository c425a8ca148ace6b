import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /licenses` (staff): every client's limits and use, or one client's. */
export const listClientLicences = endpointOf(licenceEndpoints, 'internal.licenses.list');

export function useClientLicences(client?: string) {
  return useCursorList(listClientLicences, { query: client === undefined ? {} : { client } });
}
