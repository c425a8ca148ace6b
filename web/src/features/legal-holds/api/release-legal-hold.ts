import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listApprovals } from '../../../components/approvals/approvals-api.ts';
import { listLegalHolds } from './list-legal-holds.ts';

/** `DELETE account/legal_holds/{target_type}/{target}`: release it (kept as an inactive record). */
export const releaseLegalHold = endpointOf(accountDataEndpoints, 'client.legal-holds.delete');

export function useReleaseLegalHold() {
  // An active hold's release answers a pending change (four eyes): the list of pending changes is read again too.
  return useEndpointMutation(releaseLegalHold, { invalidates: [listLegalHolds, listApprovals] });
}
