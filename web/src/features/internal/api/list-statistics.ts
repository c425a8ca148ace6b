import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /statistics`: per client, device, device user and payload counts from the counters kept at write time. */
export const listStatistics = endpointOf(licenceEndpoints, 'internal.statistics.list');

/** Every client's statistics (pages of 100), or one client's. */
export function useStatistics(client?: string) {
  return useCursorList(listStatistics, { query: client === undefined ? { limit: '100' } : { client } });
}
