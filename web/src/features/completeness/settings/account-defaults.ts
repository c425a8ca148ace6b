import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET account/defaults`: the account defaults, the completeness hours among them (their defaults when never set). */
export const getAccountDefaults = endpointOf(accessEndpoints, 'admin.account.defaults.get');
/** `PUT account/defaults`: replaces them all. */
export const putAccountDefaults = endpointOf(accessEndpoints, 'admin.account.defaults.put');

export function useAccountDefaults(options: { enabled: boolean }) {
  return useEndpointQuery(getAccountDefaults, {}, { enabled: options.enabled });
}

export function useSaveAccountDefaults() {
  return useEndpointMutation(putAccountDefaults, { invalidates: [getAccountDefaults], formErrors: true });
}
