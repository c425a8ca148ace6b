import { actorOf } from '#core/auth/actor.ts';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '#core/errors.ts';
import { pendingTransfer, toTransferable } from '#core/store/entities/transfer.ts';
import type { TransferRunResponse } from '#shared/contract/entities/transfers.ts';
import { failUnstarted } from '../runs/fail-unstarted.ts';
import { recordPendingTransfer } from '../runs/tracking.ts';
import { TRANSFER_JOB } from './schedules.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { loadTransferConfig, requireWholeTenant } from './transfer-configs.ts';

export const CONFIG_INACTIVE = 'The transfer configuration is not active';
export const JOB_NOT_STARTED = 'The transfer job could not be started';
export const typesRefused = (types: readonly string[]) => `Your roles may not read ${types.join(', ')} payloads, which this transfer exports`;

/**
 * Run now: records a transfer in the spec's initial state (Pending) with its running-job marker, then starts the
 * transfer job with the configuration's reference and the new transfer's id. The record comes first, so a started job always has one; if
 * the job cannot be started the record is marked Failed with the reason (so the transfers list shows what happened)
 * and the answer is a 503.
 */
export async function runTransferNow(caller: TenantCaller, reference: string): Promise<TransferRunResponse> {
  requireWholeTenant(caller);
  const { deps: dependencies, tenant: client } = caller;
  const config = await loadTransferConfig(dependencies, client, reference);
  if (config === undefined) throw new NotFoundError('Transfer configuration not found');
  const refused = caller.access === undefined ? [] : config.payload_types.filter((type) => !caller.access?.payloadTypes.includes(type));
  if (refused.length > 0) throw new ForbiddenError(typesRefused(refused));
  if (!config.is_active) throw new ConflictError(CONFIG_INACTIVE);

  const now = dependencies.clock.now();
  const transfer = pendingTransfer(client, { transfer_config_reference: reference, transfer_type: config.transfer_type }, { now, startedBy: actorOf(caller.principal) });
  await recordPendingTransfer(dependencies, transfer);
  try {
    await dependencies.jobs.start(TRANSFER_JOB, { client, transfer_config_reference: reference, transfer_id: transfer.transfer_id, trigger: 'run' });
  } catch (error) {
    await failUnstarted(dependencies, transfer, JOB_NOT_STARTED);
    throw new ServiceUnavailableError(JOB_NOT_STARTED, { cause: error });
  }
  const { transfer_id, transfer_state } = toTransferable(transfer);
  return { transfer_id, transfer_state };
}
