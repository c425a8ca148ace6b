import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listTenantRequests } from './list-tenant-requests.ts';

/** `PUT supportaccess/{request_reference}`: approve (with an expiry), reject (with a reason) or revoke. */
export const decideRequest = endpointOf(supportAccessEndpoints, 'admin.supportaccess.decide');

export function useDecideRequest() {
  return useEndpointMutation(decideRequest, { invalidates: [listTenantRequests] });
}
