import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getPolicy } from './get-policy.ts';
import { listPolicies } from './list-policies.ts';

/** `POST supervision/policies/{policy_reference}`: create a policy (409 when the reference is taken). */
export const createPolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.create');

export function useCreatePolicy() {
  return useEndpointMutation(createPolicy, { invalidates: [listPolicies, getPolicy], formErrors: true });
}
