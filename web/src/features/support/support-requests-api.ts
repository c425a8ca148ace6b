import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { endpointOf } from '../../lib/endpoint-of.ts';

export const supportRequestsByStatus = endpointOf(supportAccessEndpoints, 'internal.supportaccess.by-status');
export const createSupportRequest = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.create');
export const cancelSupportRequest = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.cancel');
export const clientsList = endpointOf(licenceEndpoints, 'internal.clients.list');
