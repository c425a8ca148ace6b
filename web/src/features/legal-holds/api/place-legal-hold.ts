import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listLegalHolds } from './list-legal-holds.ts';

/** `PUT account/legal_holds/{target_type}/{target}`: place a hold. */
export const placeLegalHold = endpointOf(accountDataEndpoints, 'client.legal-holds.put');

export function usePlaceLegalHold() {
  return useEndpointMutation(placeLegalHold, { invalidates: [listLegalHolds], formErrors: true });
}
