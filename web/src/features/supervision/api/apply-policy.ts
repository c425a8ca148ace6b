import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getPolicy } from './get-policy.ts';
import { listPolicies } from './list-policies.ts';

/** `POST supervision/policies/{policy_reference}/apply`: start applying the saved policy to a past period. */
export const applyPolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.apply');

/** The run shows on the policy (`last_apply`): the policy and the list refetch, and poll while it is Running. */
export function useApplyPolicy() {
  return useEndpointMutation(applyPolicy, { invalidates: [getPolicy, listPolicies], formErrors: true });
}
