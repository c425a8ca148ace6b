import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import type { TransferState } from '#shared/constants/account.ts';
import { raiseTransferEndAlert } from './transfer-end-alert.ts';
import { dueMarkerPuts } from '../../account-data/public.ts';
import { endMarkerOperation } from '../../jobs/public.ts';

/**
 * Ends a transfer whose job could not make progress however often the job-sweep resumed it (lambdas/jobs/job-sweep.ts):
 * PartialFail when some files arrived, Failed when none did, with why and the count in `error_message`. As the job's
 * own end does (../job/closing.ts), the TransferAlert (ops, Scoped on the transfer) is raised first, then the state,
 * its retention due marker and the removal of its running-job marker are written in one transaction, only while no
 * invocation holds a live lease. Kept apart from the job's closing steps: the jobs function running the sweep does
 * not bundle the transfer's packaging and delivery. Answers the state written, or undefined when the transfer had
 * ended or is held meanwhile.
 */
export async function endStuckTransfer(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, transferId: string, reason: string): Promise<TransferState | undefined> {
  const key = keys.transfer.key(client, transferId);
  const stored = await deps.table.get(key, { consistent: true });
  if (stored === undefined) return undefined;
  const transfer = readTransfer(stored);
  if (transfer.transfer_state !== 'Pending' && transfer.transfer_state !== 'InProgress') return undefined;
  const now = deps.clock.now().toISOString();
  if (transfer.lease_until !== undefined && transfer.lease_until > now) return undefined;
  const done = transfer.files_done ?? 0;
  const state = done > 0 ? 'PartialFail' : 'Failed';
  const message = `${reason}; ${done} of ${transfer.files_total ?? 0} files were delivered`.slice(0, 2000);
  await raiseTransferEndAlert(deps, transfer, state, message);
  const ended = { transfer_state: state, completed_at: now, progress_at: now, error_message: message };
  try {
    await deps.table.transactWrite([
      {
        kind: 'update',
        key,
        update: { set: ended, remove: ['lease_id', 'lease_until'] },
        condition: {
          kind: 'expression',
          expression: '#state IN (:pending, :running) AND (attribute_not_exists(#until) OR #until < :now)',
          names: { '#state': 'transfer_state', '#until': 'lease_until' },
          values: { ':pending': 'Pending', ':running': 'InProgress', ':now': now },
        },
      },
      ...dueMarkerPuts(client, { ...stored, ...ended }),
      endMarkerOperation(client, 'transfer', transferId),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
  return state;
}
