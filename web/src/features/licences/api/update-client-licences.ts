import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listClientLicences } from './list-client-licences.ts';

/** `PUT /clients/{client}/licenses` (staff): set all eight limits of a client. */
export const updateClientLicences = endpointOf(licenceEndpoints, 'internal.clients.licenses.put');
const listClients = endpointOf(licenceEndpoints, 'internal.clients.list');
const listStatistics = endpointOf(licenceEndpoints, 'internal.statistics.list');

export function useUpdateClientLicences() {
  return useEndpointMutation(updateClientLicences, { invalidates: [listClientLicences, listClients, listStatistics] });
}
