import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getPolicy } from './get-policy.ts';
import { listPolicies } from './list-policies.ts';

/** `PUT supervision/policies/{policy_reference}`: replace a policy (items it already raised keep their hits). */
export const updatePolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.update');

export function useUpdatePolicy() {
  return useEndpointMutation(updatePolicy, { invalidates: [listPolicies, getPolicy], formErrors: true });
}
