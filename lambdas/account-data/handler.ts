import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { erasureRequestEndpoints } from '#shared/contract/endpoints/erasure-requests.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { listLegalHolds, putLegalHold } from './legal-holds/legal-holds.ts';
import { approveChange, listChanges, readChange, rejectChange } from './approvals/approvals.ts';
import { applyApproved, requestHoldRelease, requestRetentionChange, type HoldReleaseOutcome } from './approvals/four-eyes.ts';
import { reply } from '#core/http/reply.ts';
import { listDisposals } from './retention/disposal-records.ts';
import { objectLockFacts } from './object-lock/object-retention.ts';
import { getRetentionPolicy } from './retention/retention-policy.ts';
import { previewRetention } from './retention/retention-preview.ts';
import { apiRecorders } from '../api-recorders.ts';
import { createErasureRequest, getErasureRequest, listErasureRequests, reviewErasureRequest } from './erasure/erasure-service.ts';

/** The group's endpoints, picked by id (the legacy migration endpoints are their own group: lambdas/migrations). */
const retentionGet = endpointOf(accountDataEndpoints, 'client.account.retention.get');
const retentionPut = endpointOf(accountDataEndpoints, 'client.account.retention.put');
const retentionPreview = endpointOf(accountDataEndpoints, 'client.account.retention.preview');
const disposalsList = endpointOf(accountDataEndpoints, 'client.disposals.list');
const holdsList = endpointOf(accountDataEndpoints, 'client.legal-holds.list');
const holdsPut = endpointOf(accountDataEndpoints, 'client.legal-holds.put');
const holdsDelete = endpointOf(accountDataEndpoints, 'client.legal-holds.delete');
const approvalsList = endpointOf(accountDataEndpoints, 'client.approvals.list');
const approvalsRead = endpointOf(accountDataEndpoints, 'client.approvals.read');
const approvalsApprove = endpointOf(accountDataEndpoints, 'client.approvals.approve');
const approvalsReject = endpointOf(accountDataEndpoints, 'client.approvals.reject');
const erasureCreate = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.create');
const erasureList = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.list');
const erasureGet = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.get');
const erasureReview = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.review');

/** A release that waits for a second approver answers 202 with the pending change; one applied at once, the hold. */
const holdReleaseAnswer = (released: HoldReleaseOutcome) => (released.outcome === 'pending' ? reply(released.change, { status: 202 }) : released.hold);

/** Lambda entry of the `account-data` group: retention policy, its preview, disposal records, legal holds and the changes awaiting a second approver. */
export const handler = createApiHandler({
  group: 'account-data',
  recorders: apiRecorders,
  // Erasure requests share the group: they apply retention's rules and legal holds (docs/erasure.md).
  endpoints: [...accountDataEndpoints, ...erasureRequestEndpoints],
  routes: {
    // Both answers say how the recordings' object locks follow the policy (object_lock), for the editor to show.
    [retentionGet.id]: implementForTenant(retentionGet, async ({ caller }) => ({
      ...(await getRetentionPolicy(caller.deps, caller.tenant)),
      object_lock: objectLockFacts(caller.deps.config),
    })),
    // The floor first (a period below the strictest chosen rule is refused before anything is written); then a change
    // that shortens a period or removes a rule answers 202 with the pending change, and any other applies at once.
    [retentionPut.id]: implementForTenant(retentionPut, async ({ caller, body }) => {
      const requested = await requestRetentionChange(caller, body);
      if (requested.outcome === 'pending') return reply(requested.change, { status: 202 });
      return { ...requested.policy, object_lock: objectLockFacts(caller.deps.config) };
    }),
    [retentionPreview.id]: implementForTenant(retentionPreview, ({ caller, body }) => previewRetention(caller, body)),
    [disposalsList.id]: implementForTenant(disposalsList, ({ caller, query }) => listDisposals(caller, query)),
    [holdsList.id]: implementForTenant(holdsList, ({ caller, query }) => listLegalHolds(caller, query)),
    [holdsPut.id]: implementForTenant(holdsPut, async ({ caller, params, body }) => {
      const target = { targetType: params.target_type, target: params.target };
      return body.is_active ? putLegalHold(caller, target, true) : holdReleaseAnswer(await requestHoldRelease(caller, target));
    }),
    [holdsDelete.id]: implementForTenant(holdsDelete, async ({ caller, params }) =>
      holdReleaseAnswer(await requestHoldRelease(caller, { targetType: params.target_type, target: params.target })),
    ),
    [approvalsList.id]: implementForTenant(approvalsList, ({ caller, query }) => listChanges(caller, query)),
    [approvalsRead.id]: implementForTenant(approvalsRead, ({ caller, params }) => readChange(caller, params.approval_reference)),
    [approvalsApprove.id]: implementForTenant(approvalsApprove, ({ caller, params }) => approveChange(caller, params.approval_reference, applyApproved)),
    [approvalsReject.id]: implementForTenant(approvalsReject, ({ caller, params, body }) => rejectChange(caller, params.approval_reference, body.reason)),
    [erasureCreate.id]: implementForTenant(erasureCreate, async ({ caller, body }) => reply(await createErasureRequest(caller, body), { status: 201 })),
    [erasureList.id]: implementForTenant(erasureList, ({ caller, query }) => listErasureRequests(caller, query)),
    [erasureGet.id]: implementForTenant(erasureGet, ({ caller, params }) => getErasureRequest(caller, params.erasure_request_reference)),
    [erasureReview.id]: implementForTenant(erasureReview, ({ caller, params, body }) => reviewErasureRequest(caller, params.erasure_request_reference, body)),
  },
  // Legal holds on device users set Object Lock legal holds on their recordings' objects (a large hold's walk goes on
  // in a job); the rest is DynamoDB.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter),
});
