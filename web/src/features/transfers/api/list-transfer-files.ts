import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import type { TransferItem } from '#shared/contract/entities/transfers.ts';
import { PENDING_POLL_MS, useCursorList } from '../../../lib/api-hooks.ts';

/** `GET transfers/{transfer_id}/files`: all of a transfer's files, page by page. */
export const listTransferFiles = endpointOf(transferEndpoints, 'client.transfers.files');

/** The transfer's files, page by page; refreshed with the transfer while it moves. */
export function useTransferFiles(transferId: string, stillMoving: boolean, fileState?: TransferItem['file_state']) {
  return useCursorList(
    listTransferFiles,
    { params: { transfer_id: transferId }, query: fileState === undefined ? {} : { file_state: fileState } },
    { refetchInterval: stillMoving ? PENDING_POLL_MS : false, staleTime: 0 },
  );
}
