import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { clientRequests } from './list-client-requests.ts';
import { staffRequestsByState } from './list-staff-requests.ts';

/** `DELETE /clients/{client}/supportaccess/{request_reference}` (staff): withdraw a pending request or end an approved one. */
export const cancelRequest = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.cancel');

export function useCancelRequest() {
  return useEndpointMutation(cancelRequest, { invalidates: [staffRequestsByState, clientRequests] });
}
