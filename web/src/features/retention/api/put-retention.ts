import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getRetention } from './get-retention.ts';

/** `PUT account/retention`: replace the policy. */
export const putRetention = endpointOf(accountDataEndpoints, 'client.account.retention.put');

export function useSaveRetention() {
  return useEndpointMutation(putRetention, { invalidates: [getRetention], formErrors: true });
}
