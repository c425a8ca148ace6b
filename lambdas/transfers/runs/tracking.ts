import type { Dependencies } from '#core/dependencies.ts';
import { transferToItem, type TransferItem } from '#core/store/entities/transfer.ts';
import { leaseUntil, startMarkerOperation, type TrackedJob } from '../../jobs/public.ts';
import { TRANSFER_JOB } from '../configs/schedules.ts';

/**
 * A transfer as a long job (lambdas/jobs/running-jobs.ts): its marker is keyed by the transfer id and resumes it with
 * the job's input for that transfer. `limits` carries the per-invocation bounds a test gave the job (budget, files,
 * attempts, backoff), so a resumed run keeps to them as a hand-over does.
 */
export function trackedTransfer(client: string, transferId: string, configReference: string, limits: Record<string, unknown> = {}): TrackedJob {
  return {
    client,
    kind: 'transfer',
    id: transferId,
    job: TRANSFER_JOB,
    input: { ...limits, client, transfer_config_reference: configReference, transfer_id: transferId, trigger: 'resume' },
  };
}

/**
 * Records a new Pending transfer and its running-job marker in one transaction, so a transfer whose job never starts
 * (a lost or throttled start, a crash before the claim) is found by the job-sweep and started, never left Pending.
 */
export async function recordPendingTransfer(deps: Pick<Dependencies, 'table' | 'clock' | 'config'>, transfer: TransferItem, limits: Record<string, unknown> = {}): Promise<void> {
  const now = deps.clock.now();
  await deps.table.transactWrite([
    { kind: 'put', item: transferToItem(transfer), condition: { kind: 'item-not-exists' } },
    startMarkerOperation(trackedTransfer(transfer.client, transfer.transfer_id, transfer.transfer_config_reference, limits), leaseUntil(deps.config, now), now),
  ]);
}
