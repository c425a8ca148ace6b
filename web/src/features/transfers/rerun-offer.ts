import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { MOVING_STATES } from './transfer-labels.ts';

/** A Pending or InProgress transfer with no word from its job for this long is offered to resume (its job stopped). */
export const STOPPED_AFTER_MS = 15 * 60_000;

/** What running this transfer again would do, or undefined when its state does not allow it now. */
export function rerunOffer(transfer: Transferable, now: Date): { label: string; explain: string } | undefined {
  if (transfer.transfer_state === 'PartialFail' || transfer.transfer_state === 'Failed') {
    return { label: 'Run again', explain: 'A new transfer of the recordings this one did not deliver; this one stays as it is.' };
  }
  if (MOVING_STATES.has(transfer.transfer_state)) {
    const last = Date.parse(transfer.progress_at ?? transfer.started_at ?? transfer.created_at);
    if (now.getTime() - last > STOPPED_AFTER_MS) return { label: 'Resume', explain: 'Its job has gone quiet: start it again from where it stopped.' };
  }
  return undefined;
}
