import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /countries`: countries and the mobile carriers seen in each, with the clients whose devices used them. */
export const listCountries = endpointOf(licenceEndpoints, 'internal.countries.list');

export function useCountries() {
  return useCursorList(listCountries, { query: {} });
}
