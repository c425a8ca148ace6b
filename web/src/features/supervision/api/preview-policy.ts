import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';

/** `POST supervision/policies/{policy_reference}/preview`: what the policy as drafted would have raised. */
export const previewPolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.preview');

/** A preview changes nothing, but its body is the whole draft, so it is asked on demand (never cached). */
export function usePreviewPolicy() {
  return useEndpointMutation(previewPolicy, { formErrors: true });
}
