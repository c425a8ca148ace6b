import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import type { Transferable, TransferItem } from '#shared/contract/entities/transfers.ts';
import { PENDING_POLL_MS, useCursorList, useEndpointMutation, useEndpointQuery } from '../../lib/api-hooks.ts';
import type { CallInput } from '../../lib/api-client.ts';
import { MOVING_STATES } from './transfer-labels.ts';

/** `GET transfers`: the tenant's transfers, newest first. */
export const listTransfers = endpointOf(transferEndpoints, 'client.transfers.list');
/** `GET transfers/{transfer_id}`: one transfer, its progress and its first files. */
export const getTransfer = endpointOf(transferEndpoints, 'client.transfers.get');
/** `GET transfers/{transfer_id}/files`: all of a transfer's files, page by page. */
export const listTransferFiles = endpointOf(transferEndpoints, 'client.transfers.files');
/** `POST transfers/{transfer_id}/run`: run a transfer again (resume a stopped one, or retry what was not delivered). */
export const rerunTransfer = endpointOf(transferEndpoints, 'client.transfers.rerun');

export type TransferListQuery = NonNullable<CallInput<typeof listTransfers>['query']>;

const moving = (transfer: Pick<Transferable, 'transfer_state'>) => MOVING_STATES.has(transfer.transfer_state);

/** The list, refreshed every few seconds while any loaded transfer is Pending or InProgress. */
export function useTransfers(query: TransferListQuery) {
  return useCursorList(listTransfers, { query }, { pollWhile: moving, staleTime: 0 });
}

/** One transfer, refreshed while it is still moving. */
export function useTransfer(transferId: string) {
  return useEndpointQuery(
    getTransfer,
    { params: { transfer_id: transferId } },
    { refetchInterval: (query) => (query.state.data !== undefined && moving(query.state.data) ? PENDING_POLL_MS : false), staleTime: 0 },
  );
}

/** The transfer's files, page by page; refreshed with the transfer while it moves. */
export function useTransferFiles(transferId: string, stillMoving: boolean, fileState?: TransferItem['file_state']) {
  return useCursorList(
    listTransferFiles,
    { params: { transfer_id: transferId }, query: fileState === undefined ? {} : { file_state: fileState } },
    { refetchInterval: stillMoving ? PENDING_POLL_MS : false, staleTime: 0 },
  );
}

export function useRerunTransfer() {
  return useEndpointMutation(rerunTransfer, { invalidates: [listTransfers, getTransfer, listTransferFiles] });
}
