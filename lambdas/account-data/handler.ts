import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { listLegalHolds, putLegalHold, releaseLegalHold } from './legal-holds/legal-holds.ts';
import { listDisposals } from './retention/disposal-records.ts';
import { objectLockFacts } from './object-lock/object-retention.ts';
import { getRetentionPolicy, putRetentionPolicy } from './retention/retention-policy.ts';
import { previewRetention } from './retention/retention-preview.ts';
import { withinRegulatoryFloor } from './retention/regulatory-floor.ts';
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
    [retentionGet.id]: implementForTenant(retentionGet, async ({ caller }) => ({
      ...(await getRetentionPolicy(caller.deps, caller.tenant)),
      object_lock: objectLockFacts(caller.deps.config),
    })),
    [retentionPut.id]: implementForTenant(retentionPut, async ({ caller, body }) => ({
      // The floor first: a period below the strictest chosen rule is refused before anything is written.
      ...(await putRetentionPolicy(caller, await withinRegulatoryFloor(caller, body))),
      object_lock: objectLockFacts(caller.deps.config),
    })),
    [retentionPreview.id]: implementForTenant(retentionPreview, ({ caller, body }) => previewRetention(caller, body)),
    [disposalsList.id]: implementForTenant(disposalsList, ({ caller, query }) => listDisposals(caller, query)),
    [holdsList.id]: implementForTenant(holdsList, ({ caller, query }) => listLegalHolds(caller, query)),
    [holdsPut.id]: implementForTenant(holdsPut, ({ caller, params, body }) =>
      putLegalHold(caller, { targetType: params.target_type, target: params.target }, body.is_active),
    ),
    [holdsDelete.id]: implementForTenant(holdsDelete, ({ caller, params }) =>
      releaseLegalHold(caller, { targetType: params.target_type, target: params.target }),
    ),
  },
  // Legal holds on device users set Object Lock legal holds on their recordings' objects (a large hold's walk goes on
  // in a job); the rest is DynamoDB.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter),
});
