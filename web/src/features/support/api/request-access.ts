import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { clientRequests } from './list-client-requests.ts';
import { staffRequestsByState } from './list-staff-requests.ts';

/** `POST /clients/{client}/supportaccess` (staff): ask a client for one of its roles until an expiry. */
export const requestAccess = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.create');

export function useRequestAccess() {
  return useEndpointMutation(requestAccess, { invalidates: [staffRequestsByState, clientRequests] });
}
