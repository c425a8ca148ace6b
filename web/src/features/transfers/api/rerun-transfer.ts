import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getTransfer } from './get-transfer.ts';
import { listTransferFiles } from './list-transfer-files.ts';
import { listTransfers } from './list-transfers.ts';

/** `POST transfers/{transfer_id}/run`: run a transfer again (resume a stopped one, or retry what was not delivered). */
export const rerunTransfer = endpointOf(transferEndpoints, 'client.transfers.rerun');

export function useRerunTransfer() {
  return useEndpointMutation(rerunTransfer, { invalidates: [listTransfers, getTransfer, listTransferFiles] });
}
