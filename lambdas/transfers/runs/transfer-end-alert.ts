import type { TransferState } from '#shared/constants/account.ts';
import { raiseAlert } from '../../alerts/public.ts';
import { relatedEntity } from '../../alerts/public.ts';

/**
 * The ops alert of a transfer that ended Failed or PartialFail, Scoped on the transfer: one wording whether the job
 * ended it (../job/closing.ts) or the job-sweep gave up on it (./end-stuck.ts). Kept apart from both so the jobs
 * function, which runs the sweep, bundles no packaging or delivery code for it.
 */
export function raiseTransferEndAlert(
  deps: Parameters<typeof raiseAlert>[0],
  transfer: { client: string; transfer_id: string; transfer_config_reference: string },
  state: Exclude<TransferState, 'Succeeded'>,
  message: string,
) {
  const { client } = transfer;
  return raiseAlert(deps, client, {
    scope: 'ops',
    type: 'TransferAlert',
    subject: `Transfer ${transfer.transfer_config_reference} ${state === 'Failed' ? 'failed' : 'partly failed'}`,
    key: `transfer:${transfer.transfer_id}`,
    keyType: 'Scoped',
    message: message.slice(0, 2000),
    severity: state === 'Failed' ? 'High' : 'Medium',
    relatedEntities: [relatedEntity(client, 'Transfer', transfer.transfer_id)],
  });
}
