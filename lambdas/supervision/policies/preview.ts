import type { TenantCaller } from '#core/http/caller.ts';
import { ValidationError } from '#core/errors.ts';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { eachPage } from '#core/store/paging.ts';
import { SUPERVISION_PREVIEW_EXAMPLES_MAX, SUPERVISION_PREVIEW_SCAN_MAX } from '#shared/constants/supervision.ts';
import type { SupervisionPolicyRequest, SupervisionPreview, SupervisionPreviewRequest } from '#shared/contract/entities/supervision.ts';
import { inParallel } from '#core/in-parallel.ts';
import { evaluateStored } from '../evaluation/evaluate-stored.ts';
import { PERIOD_PAGE, periodOf, periodQuery, processedOf, type PeriodDependencies } from '../evaluation/period.ts';
import { policySetOf, tenantPolicies } from '../evaluation/policy-set.ts';
import { groupFactsCache, scopePatternIssues } from './policy-scope.ts';
import { newSamplingSeed, readStoredPolicy } from './policies.ts';

/** Recordings evaluated at once (each may read its processed object). */
const PARALLEL = 10;

/**
 * The policy as a stored one would be, for evaluation: enabled (a preview asks what it would find), with the saved
 * policy's sampling seed when there is one (so a preview of an edit draws the sample the saved policy draws), else a
 * seed of its own.
 */
function previewedPolicy(tenant: string, reference: string, request: SupervisionPolicyRequest, stored: SupervisionPolicyItem | undefined): SupervisionPolicyItem {
  return {
    client: tenant,
    policy_reference: reference,
    kind: request.kind,
    is_enabled: true,
    scope: request.scope,
    terms: request.terms,
    ...(request.sample_percent === undefined ? {} : { sample_percent: request.sample_percent }),
    sample_minimum: request.sample_minimum,
    review_days: request.review_days,
    sampling_seed: stored?.sampling_seed ?? newSamplingSeed(),
    policy_version: (stored?.policy_version ?? 0) + 1,
  };
}

/**
 * What a policy, as sent and not saved, would have raised over a past period: the tenant's Processed recordings of
 * the period the caller may see (payload types and groups), read by one Query on the tenant's time index, at most
 * SUPERVISION_PREVIEW_SCAN_MAX of them (then `is_partial`). A Lexicon policy is evaluated with the tenant's enabled
 * Ignore policies, as it would be when saved. Sampling shows the percentage draw only (the daily minimum top-up is
 * not simulated). Nothing is written.
 */
export async function previewPolicy(caller: TenantCaller, policyReference: string, request: SupervisionPreviewRequest): Promise<SupervisionPreview> {
  const problems = scopePatternIssues(request.policy.scope, 'body.policy.scope');
  if (request.policy.policy_reference !== undefined && request.policy.policy_reference !== policyReference) {
    problems.push(`body.policy.policy_reference: Must equal the path's policy_reference (${policyReference}) or be left out`);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const period = periodOf(request);
  const deps: PeriodDependencies = caller.deps;
  const { tenant } = caller;
  const policy = previewedPolicy(tenant, policyReference, request.policy, await readStoredPolicy(deps, tenant, policyReference));
  const ignores = policy.kind === 'Lexicon' ? (await tenantPolicies(deps, tenant)).filter((other) => other.kind === 'Ignore' && other.policy_reference !== policyReference) : [];
  const set = policySetOf([policy, ...ignores]);
  const groupFacts = groupFactsCache(deps, tenant);
  const visible = caller.payloadScope();
  const raisedAt = deps.clock.now().toISOString();
  const preview: SupervisionPreview = { scanned: 0, would_raise: 0, is_partial: false, examples: [] };
  for await (const page of eachPage(deps.table, periodQuery(tenant, period), PERIOD_PAGE)) {
    const recordings = await visible.filter(processedOf(page));
    const room = SUPERVISION_PREVIEW_SCAN_MAX - preview.scanned;
    if (recordings.length > room) preview.is_partial = true;
    const taken = recordings.slice(0, room);
    const results = await inParallel(taken, PARALLEL, async (payload) =>
      evaluateStored(deps, tenant, { set, payload, group: await groupFacts(payload.group), only: policyReference, raisedAt }),
    );
    preview.scanned += taken.length;
    for (const { recording, findings } of results) {
      if (findings.hits.length === 0) continue;
      preview.would_raise += 1;
      if (preview.examples.length < SUPERVISION_PREVIEW_EXAMPLES_MAX) {
        preview.examples.push({
          payload_reference: recording.payload_reference,
          payload_type: recording.payload_type,
          payload_time: recording.payload_time,
          ...(recording.device_user_reference === undefined ? {} : { device_user_reference: recording.device_user_reference }),
          hits: findings.hits,
        });
      }
    }
    if (preview.is_partial) break;
  }
  return preview;
}
