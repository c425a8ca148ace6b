import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listPolicies } from './list-policies.ts';

/** `DELETE supervision/policies/{policy_reference}`: the items it raised and their history stay. */
export const deletePolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.delete');

export function useDeletePolicy() {
  return useEndpointMutation(deletePolicy, { invalidates: [listPolicies] });
}
