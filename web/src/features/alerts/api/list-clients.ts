import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /clients` (staff): the clients a notification may be sent to. */
export const listClients = endpointOf(licenceEndpoints, 'internal.clients.list');
