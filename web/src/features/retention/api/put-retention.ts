import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listApprovals } from '../../../components/approvals/approvals-api.ts';
import { getRetention } from './get-retention.ts';

/** `PUT account/retention`: replace the policy. */
export const putRetention = endpointOf(accountDataEndpoints, 'client.account.retention.put');

export function useSaveRetention() {
  // A shorter period answers a pending change (four eyes): the list of pending changes is read again too.
  return useEndpointMutation(putRetention, { invalidates: [getRetention, listApprovals], formErrors: true });
}
