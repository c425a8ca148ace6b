import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation, useEndpointQuery } from '../../lib/api-hooks.ts';

/** `GET account/retention`: the tenant's policy (the defaults until someone sets one). */
export const getRetention = endpointOf(accountDataEndpoints, 'client.account.retention.get');
/** `PUT account/retention`: replace the policy. */
export const putRetention = endpointOf(accountDataEndpoints, 'client.account.retention.put');
/** `POST account/retention/preview`: what the next run would delete and destroy under a proposed policy. */
export const previewRetention = endpointOf(accountDataEndpoints, 'client.account.retention.preview');

export function useRetentionPolicy() {
  return useEndpointQuery(getRetention, {});
}

export function useSaveRetention() {
  return useEndpointMutation(putRetention, { invalidates: [getRetention], formErrors: true });
}

/** A preview is a read (nothing changes), but its body is the whole proposal, so it is asked on demand. */
export function usePreviewRetention() {
  return useEndpointMutation(previewRetention, { formErrors: true });
}
