import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listLegalHolds } from './list-legal-holds.ts';

/** `DELETE account/legal_holds/{target_type}/{target}`: release it (kept as an inactive record). */
export const releaseLegalHold = endpointOf(accountDataEndpoints, 'client.legal-holds.delete');

export function useReleaseLegalHold() {
  return useEndpointMutation(releaseLegalHold, { invalidates: [listLegalHolds] });
}
