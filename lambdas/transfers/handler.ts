import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { schedulerAdapter } from '#core/adapters/wiring/scheduler.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant, type TenantRouteInput } from '#core/http/route.ts';
import { runTransferNow } from './configs/run-now.ts';
import { deleteTransferConfig, getTransferConfig, listTransferConfigs, saveTransferConfig, type Caller } from './configs/transfer-configs.ts';
import { rerunTransfer } from './runs/rerun.ts';
import { getTransfer, listTransferFiles, listTransfers, type Reader } from './runs/transfer-reads.ts';
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

/** Who is calling, as the configuration services need it. */
const callerOf = (input: TenantRouteInput): Caller => ({ principal: input.principal, access: input.access, groupScope: input.groupScope });
/** Who is reading transfers: their payload types (files of other types are left out) and group scope. */
const readerOf = (input: TenantRouteInput): Reader => ({ payloadTypes: input.access?.payloadTypes, groupScope: input.groupScope });

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
    [configsList.id]: implementForTenant(configsList, (input, deps) => listTransferConfigs(deps, input.client, input.query)),
    [configsGet.id]: implementForTenant(configsGet, (input, deps) => getTransferConfig(deps, input.client, input.params.transfer_config_reference)),
    [configsCreate.id]: implementForTenant(configsCreate, async (input, deps) =>
      reply(await saveTransferConfig(deps, input.client, input.params.transfer_config_reference, input.body, callerOf(input), 'create'), {
        status: 201,
      }),
    ),
    [configsUpdate.id]: implementForTenant(configsUpdate, (input, deps) =>
      saveTransferConfig(deps, input.client, input.params.transfer_config_reference, input.body, callerOf(input), 'replace'),
    ),
    [configsDelete.id]: implementForTenant(configsDelete, async (input, deps) => {
      await deleteTransferConfig(deps, input.client, input.params.transfer_config_reference, callerOf(input));
      return { ok: true as const };
    }),
    [configsRun.id]: implementForTenant(configsRun, async (input, deps) =>
      reply(await runTransferNow(deps, input.client, input.params.transfer_config_reference, callerOf(input)), { status: 202 }),
    ),
    [transfersList.id]: implementForTenant(transfersList, (input, deps) => listTransfers(deps, input.client, input.query, readerOf(input))),
    [transfersGet.id]: implementForTenant(transfersGet, (input, deps) => getTransfer(deps, input.client, input.params.transfer_id, readerOf(input))),
    [transfersFiles.id]: implementForTenant(transfersFiles, (input, deps) =>
      listTransferFiles(deps, input.client, input.params.transfer_id, input.query, readerOf(input)),
    ),
    [transfersRerun.id]: implementForTenant(transfersRerun, async (input, deps) =>
      reply(await rerunTransfer(deps, input.client, input.params.transfer_id, callerOf(input)), { status: 202 }),
    ),
  },
  // Secrets are sealed with the tenant key, schedules go to EventBridge Scheduler, run now invokes the transfer jobs function.
  dependencies: dependenciesWith(keyServiceAdapter, schedulerAdapter, jobRunnerAdapter),
});
