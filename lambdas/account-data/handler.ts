import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { payloadAccess } from '#core/auth/access/payload-access.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { listLegalHolds, putLegalHold, releaseLegalHold } from './legal-holds/legal-holds.ts';
import { listDisposals } from './retention/disposal-records.ts';
import { objectLockFacts } from './object-lock/object-retention.ts';
import { getRetentionPolicy, putRetentionPolicy } from './retention/retention-policy.ts';
import { previewRetention } from './retention/retention-preview.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id (the legacy migration endpoints are their own group: lambdas/migrations). */
const retentionGet = endpointOf(accountDataEndpoints, 'client.account.retention.get');
const retentionPut = endpointOf(accountDataEndpoints, 'client.account.retention.put');
const retentionPreview = endpointOf(accountDataEndpoints, 'client.account.retention.preview');
const disposalsList = endpointOf(accountDataEndpoints, 'client.disposals.list');
const holdsList = endpointOf(accountDataEndpoints, 'client.legal-holds.list');
const holdsPut = endpointOf(accountDataEndpoints, 'client.legal-holds.put');
const holdsDelete = endpointOf(accountDataEndpoints, 'client.legal-holds.delete');

/** Lambda entry of the `account-data` group: retention policy, its preview, disposal records and legal holds. */
export const handler = createApiHandler({
  group: 'account-data',
  recorders: apiRecorders,
  endpoints: accountDataEndpoints,
  routes: {
    // Both answers say how the recordings' object locks follow the policy (object_lock), for the editor to show.
    [retentionGet.id]: implementForTenant(retentionGet, async (input, deps) => ({
      ...(await getRetentionPolicy(deps, input.client)),
      object_lock: objectLockFacts(deps.config),
    })),
    [retentionPut.id]: implementForTenant(retentionPut, async (input, deps) => ({
      ...(await putRetentionPolicy(deps, input.client, input.body, input.principal)),
      object_lock: objectLockFacts(deps.config),
    })),
    [retentionPreview.id]: implementForTenant(retentionPreview, (input, deps) => previewRetention(deps, input.client, input.body)),
    [disposalsList.id]: implementForTenant(disposalsList, (input, deps) => listDisposals(deps, input.client, input.query)),
    [holdsList.id]: implementForTenant(holdsList, (input, deps) =>
      listLegalHolds(deps, input.client, input.query, input.groupScope(), payloadAccess(deps, input.client, input.access, holdsList.action)),
    ),
    [holdsPut.id]: implementForTenant(holdsPut, (input, deps) =>
      putLegalHold(deps, input.client, { targetType: input.params.target_type, target: input.params.target }, input.body.is_active, input.principal, input.groupScope()),
    ),
    [holdsDelete.id]: implementForTenant(holdsDelete, (input, deps) =>
      releaseLegalHold(deps, input.client, { targetType: input.params.target_type, target: input.params.target }, input.principal, input.groupScope()),
    ),
  },
  // Legal holds on device users set Object Lock legal holds on their recordings' objects (a large hold's walk goes on
  // in a job); the rest is DynamoDB.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter),
});
