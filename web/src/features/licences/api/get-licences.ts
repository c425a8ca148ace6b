import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET licenses`: this client's limit and use per service. */
export const getLicences = endpointOf(licenceEndpoints, 'admin.licenses.get');

export function useLicences() {
  return useEndpointQuery(getLicences, {});
}
