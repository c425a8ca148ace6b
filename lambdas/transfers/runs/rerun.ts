import { actorOf } from '#core/auth/actor.ts';
import { ConflictError, ForbiddenError, ServiceUnavailableError } from '#core/errors.ts';
import { pendingTransfer, type TransferItem } from '#core/store/entities/transfer.ts';
import type { TransferRunResponse } from '#shared/contract/entities/transfers.ts';
import { TRANSFER_JOB } from '../configs/schedules.ts';
import { failUnstarted } from './fail-unstarted.ts';
import { recordPendingTransfer } from './tracking.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { loadTransferConfig, requireWholeTenant, type TransferDependencies } from '../configs/transfer-configs.ts';
import { loadTransfer } from './transfer-reads.ts';

export const ALL_DELIVERED = 'Every file of this transfer was delivered; run its configuration for new recordings';
export const STILL_RUNNING = 'This transfer is being delivered now; it can be run again once it stops';
export const CONFIG_GONE = 'The transfer configuration of this transfer no longer exists';
export const CONFIG_INACTIVE = 'The transfer configuration is not active';
export const JOB_NOT_STARTED = 'The transfer job could not be started';

/**
 * `POST transfers/{id}/run` (docs/decisions.md, "Transfers: re-runs"):
 * - a transfer still Pending or InProgress whose job is not working on it (its lease ran out: the job died or was
 *   never started) is resumed: the job is started again on the same transfer and goes on from its checkpoint;
 * - a PartialFail or Failed transfer is run again as a new transfer (`rerun_of` naming it) of the same configuration
 *   and report window, carrying only the recordings the first did not deliver (all of the window when it failed
 *   before choosing them); the first stays as it was, as evidence;
 * - a Succeeded transfer has nothing left to deliver (409), nor has one whose job holds a live lease (409).
 */
export async function rerunTransfer(caller: TenantCaller, transferId: string): Promise<TransferRunResponse> {
  requireWholeTenant(caller);
  const { deps, tenant: client } = caller;
  const transfer = await loadTransfer(deps, client, transferId);
  const config = await loadTransferConfig(deps, client, transfer.transfer_config_reference);
  if (config === undefined) throw new ConflictError(CONFIG_GONE);
  const refused = caller.access === undefined ? [] : config.payload_types.filter((type) => !caller.access?.payloadTypes.includes(type));
  if (refused.length > 0) throw new ForbiddenError(`Your roles may not read ${refused.join(', ')} payloads, which this transfer exports`);
  if (!config.is_active) throw new ConflictError(CONFIG_INACTIVE);
  const now = deps.clock.now();

  if (transfer.transfer_state === 'Succeeded') throw new ConflictError(ALL_DELIVERED);
  if (transfer.transfer_state === 'Pending' || transfer.transfer_state === 'InProgress') {
    if (transfer.lease_until !== undefined && transfer.lease_until > now.toISOString()) throw new ConflictError(STILL_RUNNING);
    await startJob(deps, transfer, { trigger: 'resume', failIfNotStarted: false });
    return { transfer_id: transfer.transfer_id, transfer_state: transfer.transfer_state };
  }

  const again = pendingTransfer(
    client,
    { transfer_config_reference: transfer.transfer_config_reference, transfer_type: config.transfer_type },
    {
      now,
      startedBy: actorOf(caller.principal),
      extra: {
        rerun_of: transfer.transfer_id,
        ...(transfer.report_from === undefined ? {} : { report_from: transfer.report_from }),
        ...(transfer.report_to === undefined ? {} : { report_to: transfer.report_to }),
      },
    },
  );
  await recordPendingTransfer(deps, again);
  await startJob(deps, again, { trigger: 'rerun', failIfNotStarted: true });
  return { transfer_id: again.transfer_id, transfer_state: again.transfer_state };
}

/** Starts the job; a job that cannot be started fails a new transfer (with the reason) and answers 503. */
async function startJob(deps: TransferDependencies, transfer: TransferItem, { trigger, failIfNotStarted }: { trigger: string; failIfNotStarted: boolean }): Promise<void> {
  try {
    await deps.jobs.start(TRANSFER_JOB, { client: transfer.client, transfer_config_reference: transfer.transfer_config_reference, transfer_id: transfer.transfer_id, trigger });
  } catch (error) {
    if (failIfNotStarted) {
      await failUnstarted(deps, transfer, JOB_NOT_STARTED);
    }
    throw new ServiceUnavailableError(JOB_NOT_STARTED, { cause: error });
  }
}
