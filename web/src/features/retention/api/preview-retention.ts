import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';

/** `POST account/retention/preview`: what the next run would delete and destroy under a proposed policy. */
export const previewRetention = endpointOf(accountDataEndpoints, 'client.account.retention.preview');

/** A preview is a read (nothing changes), but its body is the whole proposal, so it is asked on demand. */
export function usePreviewRetention() {
  return useEndpointMutation(previewRetention, { formErrors: true });
}
