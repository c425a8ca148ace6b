import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { jobActor } from '#core/auth/actor.ts';
import { ConditionFailedError, type WriteCondition } from '#core/ports/table-store.ts';
import { endMarkerOperation, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';
import { keys } from '#core/store/keys.ts';
import { ClientId, SupervisionPolicyReference } from '#shared/contract/fields.ts';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import type { SupervisionApplyRun } from '#shared/contract/entities/supervision.ts';
import { recordHits } from '../items/record-hits.ts';
import { inParallel } from '#core/in-parallel.ts';
import { evaluateStored } from '../evaluation/evaluate-stored.ts';
import { PERIOD_PAGE, periodQuery, processedOf } from '../evaluation/period.ts';
import { policySetOf, tenantPolicies } from '../evaluation/policy-set.ts';
import { groupFactsCache } from '../policies/policy-scope.ts';
import { readStoredPolicy } from '../policies/policies.ts';

/**
 * The `supervision-apply` job (`POST supervision/policies/{policy_reference}/apply`, or
 * `npm run job -- supervision-apply --client <c> --input '{"policy_reference":"…","run":"…","from":"…","to":"…"}'`
 * for a run the API started): applies a saved policy to the tenant's Processed recordings of a past period, raising
 * items as processing would have (recordHits: a hit already on an item is not added again, so a re-run or a resumed
 * page adds nothing twice). Its progress is the policy's `last_apply` (scanned, raised), written after every page
 * with the lease of the run; after JOB_RUN_MS it starts itself again with its position. A run that is no longer the
 * policy's latest (another apply started after its lease ran out, or the policy was deleted) stops.
 *
 * A long job the job-sweep watches (lambdas/jobs/running-jobs.ts): startApply writes its running-job marker, each page
 * renews the marker's lease with the position the next page starts from, and the run's end removes the marker in the
 * same transaction. The marker's lease (JOB_RUN_MS and the margin) runs out before the run's own (APPLY_LEASE_MS), so
 * a run whose invocation died is resumed from its last page before the policy would show it Failed.
 */
export const SUPERVISION_APPLY_JOB = 'supervision-apply';
/** One run's budget: the jobs function may run 5 minutes. */
const JOB_RUN_MS = 4 * 60_000;
/** A Running apply whose lease ran out died: the policy shows it Failed and another apply may start. */
export const APPLY_LEASE_MS = 10 * 60_000;
/** Recordings evaluated at once. */
const PARALLEL = 10;

export const APPLY_ACTOR = jobActor(SUPERVISION_APPLY_JOB);

export const SupervisionApplyInput = z.object({
  client: ClientId,
  policy_reference: SupervisionPolicyReference,
  /** The run's `started_at`: which apply this is. */
  run: z.string(),
  /** ISO bounds of the period (inclusive). */
  from: z.string(),
  to: z.string(),
  start_key: z.record(z.string(), z.string()).optional(),
});
export type SupervisionApplyInput = z.infer<typeof SupervisionApplyInput>;

export type ApplyDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs' | 'blobs' | 'keys' | 'logger' | 'config'>;

/** The run as its running-job marker names it (one per policy; `run` tells a newer apply's marker from this one's). */
export function trackedApply(input: SupervisionApplyInput): TrackedJob {
  return { client: input.client, kind: 'supervision-apply', id: input.policy_reference, job: SUPERVISION_APPLY_JOB, input, run: input.run };
}

export interface ApplyBudget {
  until?: Date;
  /** Tests: pages per run. */
  pages?: number;
}

/** The write holds only while this run is the policy's latest and still Running (its lease exists only then). */
const stillThisRun = (run: string): WriteCondition => ({
  kind: 'expression',
  expression: '#run = :run AND attribute_exists(#lease)',
  names: { '#run': 'apply_run', '#lease': 'apply_lease_until' },
  values: { ':run': run },
});

/** The run's progress so far and a renewed lease; false when this run is no longer the policy's Running one. */
async function recordProgress(deps: ApplyDependencies, input: SupervisionApplyInput, run: SupervisionApplyRun): Promise<boolean> {
  try {
    await deps.table.update(
      keys.supervisionPolicy.item(input.client, input.policy_reference),
      { set: { last_apply: run, apply_lease_until: new Date(deps.clock.now().getTime() + APPLY_LEASE_MS).toISOString() } },
      { condition: stillThisRun(input.run) },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** Ends the run Completed or Failed (with why), its lease removed; false when it was no longer the Running one. */
export async function endApply(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  input: Pick<SupervisionApplyInput, 'client' | 'policy_reference' | 'run'>,
  end: { run: SupervisionApplyRun; state: 'Completed' | 'Failed'; message?: string },
): Promise<boolean> {
  const run: SupervisionApplyRun = {
    ...end.run,
    state: end.state,
    finished_at: deps.clock.now().toISOString(),
    ...(end.message === undefined ? {} : { message: end.message.slice(0, 500) }),
  };
  try {
    // The end and the marker's removal together: an ended run is never resumed, a running one never loses its marker.
    await deps.table.transactWrite([
      {
        kind: 'update',
        key: keys.supervisionPolicy.item(input.client, input.policy_reference),
        update: { set: { last_apply: run }, remove: ['apply_lease_until'] },
        condition: stillThisRun(input.run),
      },
      endMarkerOperation(input.client, 'supervision-apply', input.policy_reference, input.run),
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** The policy the run applies and its run, or undefined when the run is no longer the policy's Running one. */
async function currentRun(deps: ApplyDependencies, input: SupervisionApplyInput): Promise<{ policy: SupervisionPolicyItem; run: SupervisionApplyRun } | undefined> {
  const policy = await readStoredPolicy(deps, input.client, input.policy_reference);
  if (policy === undefined || policy.apply_run !== input.run || policy.apply_lease_until === undefined || policy.last_apply === undefined) return undefined;
  return { policy, run: policy.last_apply };
}

export async function supervisionApplyJob(
  deps: ApplyDependencies,
  rawInput: Record<string, unknown>,
  budget: ApplyBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = SupervisionApplyInput.parse(rawInput);
  const current = await currentRun(deps, input);
  if (current === undefined) return { outcome: 'superseded' };
  const progress = { ...current.run };
  try {
    return await applyPages(deps, input, current.policy, { progress, budget });
  } catch (error) {
    // Recorded before the error goes on to the function's retry (which then finds the run ended and stops).
    await endApply(deps, input, { run: progress, state: 'Failed', message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

async function applyPages(
  deps: ApplyDependencies,
  input: SupervisionApplyInput,
  policy: SupervisionPolicyItem,
  { progress, budget }: { progress: SupervisionApplyRun; budget: ApplyBudget },
): Promise<Record<string, unknown>> {
  // An Ignore policy raises nothing; it is applied by the Lexicon policies it suppresses.
  if (policy.kind === 'Ignore') {
    await endApply(deps, input, { run: progress, state: 'Completed', message: 'An Ignore policy raises no items' });
    return { outcome: 'done', scanned: 0, raised: 0 };
  }
  const ignores = policy.kind === 'Lexicon' ? (await tenantPolicies(deps, input.client)).filter((other) => other.kind === 'Ignore' && other.is_enabled) : [];
  const set = policySetOf([{ ...policy, is_enabled: true }, ...ignores]);
  const groupFacts = groupFactsCache(deps, input.client);
  let startKey = input.start_key;
  let pages = 0;
  const spent = () => (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
  const totals = () => ({ scanned: progress.scanned, raised: progress.raised });
  do {
    const page = await deps.table.query({ ...periodQuery(input.client, input), limit: PERIOD_PAGE, ...(startKey === undefined ? {} : { startKey }) });
    const recordings = processedOf(page.items);
    const raisedAt = deps.clock.now().toISOString();
    const raised = await inParallel(recordings, PARALLEL, async (payload) => {
      const { recording, findings } = await evaluateStored(deps, input.client, { set, payload, group: await groupFacts(payload.group), only: policy.policy_reference, raisedAt });
      if (findings.hits.length === 0 || findings.reviewDays === undefined) return 0;
      const recorded = await recordHits(deps, input.client, { recording, hits: findings.hits, reviewDays: findings.reviewDays, actor: APPLY_ACTOR });
      return recorded.added > 0 ? 1 : 0;
    });
    progress.scanned += recordings.length;
    progress.raised += raised.reduce<number>((sum, one) => sum + one, 0);
    if (!(await recordProgress(deps, input, progress))) return { outcome: 'superseded', ...totals() };
    // What a resumption starts from: the page after this one (a page done again raises nothing twice: recordHits).
    if (page.lastKey !== undefined && !(await renewTrackedJob(deps, trackedApply({ ...input, start_key: page.lastKey }), JOB_RUN_MS))) {
      return { outcome: 'superseded', ...totals() };
    }
    startKey = page.lastKey;
    pages += 1;
    if (startKey !== undefined && spent()) {
      await deps.jobs.start(SUPERVISION_APPLY_JOB, { ...input, start_key: startKey });
      return { outcome: 'more', ...totals() };
    }
  } while (startKey !== undefined);
  await endApply(deps, input, { run: progress, state: 'Completed' });
  return { outcome: 'done', ...totals() };
}

/**
 * How the job-sweep sees an apply run its marker names: running while it is the policy's latest run and not ended
 * (its own lease is there), its progress the recordings scanned so far.
 */
export async function applyStanding(deps: Pick<Dependencies, 'table'>, client: string, policyReference: string, run: string | undefined): Promise<{ running: false } | { running: true; progress: string }> {
  const policy = await readStoredPolicy(deps, client, policyReference);
  if (policy === undefined || policy.apply_run !== run || policy.apply_lease_until === undefined || policy.last_apply === undefined) return { running: false };
  return { running: true, progress: String(policy.last_apply.scanned) };
}

/** Ends a run whose invocations keep dying (the job-sweep gives up on it): Failed with why, its marker removed; false when it had ended. */
export async function endStuckApply(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, policyReference: string, run: string, reason: string): Promise<boolean> {
  const policy = await readStoredPolicy(deps, client, policyReference);
  if (policy === undefined || policy.apply_run !== run || policy.last_apply === undefined) return false;
  const message = `${reason}; ${policy.last_apply.scanned} recordings were evaluated, the rest of the period was not`;
  return endApply(deps, { client, policy_reference: policyReference, run }, { run: policy.last_apply, state: 'Failed', message });
}
