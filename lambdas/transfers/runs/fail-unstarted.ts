import type { Dependencies } from '#core/dependencies.ts';
import { transferToItem, type TransferItem } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { dueMarkerPuts } from '../../account-data/public.ts';
import { endMarkerOperation } from '../../jobs/public.ts';

/**
 * Fails a new transfer whose job could not be started (run now, re-run): Failed, why, and `completed_at`, with its
 * retention due marker (a finished run is a retained record counted from its finish) in the same transaction, which
 * also removes its running-job marker (the job-sweep has nothing to resume). Kept
 * apart from the job's closing steps so the request path does not bundle the job's packaging and storage.
 */
export async function failUnstarted(deps: Pick<Dependencies, 'table' | 'clock'>, transfer: TransferItem, message: string): Promise<void> {
  const failed = { transfer_state: 'Failed' as const, error_message: message, completed_at: deps.clock.now().toISOString() };
  await deps.table.transactWrite([
    { kind: 'update', key: keys.transfer.key(transfer.client, transfer.transfer_id), update: { set: failed }, condition: { kind: 'item-exists' } },
    ...dueMarkerPuts(transfer.client, transferToItem({ ...transfer, ...failed })),
    endMarkerOperation(transfer.client, 'transfer', transfer.transfer_id),
  ]);
}
