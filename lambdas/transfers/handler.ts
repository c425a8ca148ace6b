import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { schedulerAdapter } from '#core/adapters/wiring/scheduler.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
import { runTransferNow } from './configs/run-now.ts';
import { deleteTransferConfig, getTransferConfig, listTransferConfigs, saveTransferConfig } from './configs/transfer-configs.ts';
import { rerunTransfer } from './runs/rerun.ts';
import { getTransfer, listTransferFiles, listTransfers } from './runs/transfer-reads.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id: the compiler refuses an id the group lacks and types each route by it. */
const configsList = endpointOf(transferEndpoints, 'client.transfer-configs.list');
const configsGet = endpointOf(transferEndpoints, 'client.transfer-configs.get');
const configsCreate = endpointOf(transferEndpoints, 'client.transfer-configs.create');
const configsUpdate = endpointOf(transferEndpoints, 'client.transfer-configs.update');
const configsDelete = endpointOf(transferEndpoints, 'client.transfer-configs.delete');
const configsRun = endpointOf(transferEndpoints, 'client.transfer-configs.run');
const transfersList = endpointOf(transferEndpoints, 'client.transfers.list');
const transfersGet = endpointOf(transferEndpoints, 'client.transfers.get');
const transfersFiles = endpointOf(transferEndpoints, 'client.transfers.files');
const transfersRerun = endpointOf(transferEndpoints, 'client.transfers.rerun');

/**
 * Lambda entry of the `transfers` group: transfer configurations (with their schedules and run now) and the transfers
 * they made (list, detail with the first page of files, the files page by page, run again). The transfer job itself
 * (lambdas/transfers/job) runs in the transfer jobs function (lambdas/transfer-jobs).
 */
export const handler = createApiHandler({
  group: 'transfers',
  recorders: apiRecorders,
  endpoints: transferEndpoints,
  routes: {
    [configsList.id]: implementForTenant(configsList, ({ caller, query }) => listTransferConfigs(caller, query)),
    [configsGet.id]: implementForTenant(configsGet, ({ caller, params }) => getTransferConfig(caller, params.transfer_config_reference)),
    [configsCreate.id]: implementForTenant(configsCreate, async ({ caller, params, body }) =>
      reply(await saveTransferConfig(caller, params.transfer_config_reference, body, 'create'), { status: 201 }),
    ),
    [configsUpdate.id]: implementForTenant(configsUpdate, ({ caller, params, body }) => saveTransferConfig(caller, params.transfer_config_reference, body, 'replace')),
    [configsDelete.id]: implementForTenant(configsDelete, async ({ caller, params }) => {
      await deleteTransferConfig(caller, params.transfer_config_reference);
      return { ok: true as const };
    }),
    [configsRun.id]: implementForTenant(configsRun, async ({ caller, params }) => reply(await runTransferNow(caller, params.transfer_config_reference), { status: 202 })),
    [transfersList.id]: implementForTenant(transfersList, ({ caller, query }) => listTransfers(caller, query)),
    [transfersGet.id]: implementForTenant(transfersGet, ({ caller, params }) => getTransfer(caller, params.transfer_id)),
    [transfersFiles.id]: implementForTenant(transfersFiles, ({ caller, params, query }) => listTransferFiles(caller, params.transfer_id, query)),
    [transfersRerun.id]: implementForTenant(transfersRerun, async ({ caller, params }) => reply(await rerunTransfer(caller, params.transfer_id), { status: 202 })),
  },
  // Secrets are sealed with the tenant key, schedules go to EventBridge Scheduler, run now invokes the transfer jobs function.
  dependencies: dependenciesWith(keyServiceAdapter, schedulerAdapter, jobRunnerAdapter),
});
