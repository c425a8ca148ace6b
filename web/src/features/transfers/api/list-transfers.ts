import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { MOVING_STATES } from '../transfer-labels.ts';

/** `GET transfers`: the tenant's transfers, newest first. */
export const listTransfers = endpointOf(transferEndpoints, 'client.transfers.list');

export type TransferListQuery = NonNullable<CallInput<typeof listTransfers>['query']>;

/** A transfer still Pending or InProgress: the list and its detail ask again while one is. */
export const transferMoving = (transfer: Pick<Transferable, 'transfer_state'>) => MOVING_STATES.has(transfer.transfer_state);

/** The list, refreshed every few seconds while any loaded transfer is Pending or InProgress. */
export function useTransfers(query: TransferListQuery) {
  return useCursorList(listTransfers, { query }, { pollWhile: transferMoving, staleTime: 0 });
}
