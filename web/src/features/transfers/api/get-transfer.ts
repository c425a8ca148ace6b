import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { PENDING_POLL_MS, useEndpointQuery } from '../../../lib/api-hooks.ts';
import { transferMoving } from './list-transfers.ts';

/** `GET transfers/{transfer_id}`: one transfer, its progress and its first files. */
export const getTransfer = endpointOf(transferEndpoints, 'client.transfers.get');

/** One transfer, refreshed while it is still moving. */
export function useTransfer(transferId: string) {
  return useEndpointQuery(
    getTransfer,
    { params: { transfer_id: transferId } },
    { refetchInterval: (query) => (query.state.data !== undefined && transferMoving(query.state.data) ? PENDING_POLL_MS : false), staleTime: 0 },
  );
}
