import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { trailState } from './trail/chain-state.ts';
import { listActivities } from './activities-service.ts';
import { deviceActivityRoutes } from './device-activity-routes.ts';
import { apiRecorders } from '../api-recorders.ts';
import { listHistory } from './history/history-service.ts';
import { readActivityExport, startActivityExport } from './export/export-service.ts';
import { auditSigningPublicKeyPem } from './export/signing-public-key.ts';
import { integrityEndpoints } from '#shared/contract/endpoints/integrity.ts';
import { latestIntegrityChecks } from '../integrity/public.ts';

const activities = endpointOf(auditEndpoints, 'admin.activities.list');
const chainState = endpointOf(auditEndpoints, 'getActivityChainState');
const history = endpointOf(auditEndpoints, 'admin.history.list');
const startExport = endpointOf(auditEndpoints, 'admin.activityExports.create');
const readExport = endpointOf(auditEndpoints, 'admin.activityExports.read');
const signingKey = endpointOf(auditEndpoints, 'admin.auditSigningKey.read');
const integrity = endpointOf(integrityEndpoints, 'admin.integrity.list');
const clientIntegrity = endpointOf(integrityEndpoints, 'internal.clients.integrity.list');

/**
 * Lambda entry of the `audit` endpoint group: `GET activities` (the tenant's user activity), `GET device_activities`
 * (the tenant's device API calls, ./device-activity-routes.ts) and `GET activities/chain` (both trails' hash chains).
 */
export const handler = createApiHandler({
  group: 'audit',
  recorders: apiRecorders,
  endpoints: [...auditEndpoints, ...integrityEndpoints],
  // The trail's checkpoints are signed with the tenant's key; exports are a job's (started here) whose file is
  // downloaded from the processed bucket; the rest is DynamoDB.
  dependencies: dependenciesWith(keyServiceAdapter, blobStoreAdapter, jobRunnerAdapter),
  routes: {
    ...deviceActivityRoutes,
    [activities.id]: implementForTenant(activities, ({ caller, query }) => listActivities(caller, query)),
    [integrity.id]: implementForTenant(integrity, async ({ caller }) => ({ checks: await latestIntegrityChecks(caller.deps, caller.tenant) })),
    // The internal console's per-client figures: the same items, the path's client checked as staff's by the router.
    [clientIntegrity.id]: implementForTenant(clientIntegrity, async ({ caller }) => ({ checks: await latestIntegrityChecks(caller.deps, caller.tenant) })),
    [chainState.id]: implementForTenant(chainState, async ({ caller }) => {
      const [user, device] = await Promise.all([trailState(caller.deps, 'user', caller.tenant), trailState(caller.deps, 'device', caller.tenant)]);
      return { user_activity: user, device_activity: device };
    }),
    [history.id]: implementForTenant(history, ({ caller, params, query }) => listHistory(caller, params, query)),
    [startExport.id]: implementForTenant(startExport, ({ caller, body }) => startActivityExport(caller, body)),
    [readExport.id]: implementForTenant(readExport, ({ caller, params }) => readActivityExport(caller, params.export_id)),
    [signingKey.id]: implementForTenant(signingKey, async ({ caller }) => {
      const { keyId, pem } = await auditSigningPublicKeyPem(caller.deps);
      return { key_id: keyId, algorithm: 'ECDSA_SHA_256' as const, pem };
    }),
  },
});
