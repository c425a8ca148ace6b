import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET account/retention`: the tenant's policy (the defaults until someone sets one). */
export const getRetention = endpointOf(accountDataEndpoints, 'client.account.retention.get');

export function useRetentionPolicy() {
  return useEndpointQuery(getRetention, {});
}
