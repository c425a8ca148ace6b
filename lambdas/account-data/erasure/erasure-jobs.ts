import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { erasureRequestKeys, erasureRequestToItem, readErasureRequest, type ErasureRequestItem } from '#core/store/entities/erasure-request.ts';
import type { RunningJobKind } from '#core/store/entities/running-job.ts';
import type { RetentionDueItem } from '#core/store/entities/retention-due.ts';
import type { DueStage } from '#core/store/keys.ts';
import type { ErasureKindOutcome, ErasureState } from '#shared/contract/entities/erasure-requests.ts';
import { ClientId, Ulid } from '#shared/contract/fields.ts';
import { endMarkerOperation, jobBudgetMs, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';
import { disposalRefusal } from '../retention/disposal-decision.ts';
import { planDisposal, writeDisposals, type PlannedDisposal } from '../retention/dispose.ts';
import { dueMarkerPuts, markersOf, RECORD_TIME, stageOf } from '../retention/due-index.ts';
import type { DuePass, RetentionRule } from '../retention/retention-rules.ts';
import { addErasedTime, addKept, emptyOutcome } from './erasure-decision.ts';
import { judgeOf, pageOf, ruleFor, WALKED_KINDS, type Judge, type Judged } from './erasure-walk.ts';

/**
 * The two erasure jobs (docs/erasure.md), each a walk over the person's records kind by kind, a page at a time:
 *
 * - `erasure-decision` (started when the request is recorded): judges every record (erasure-decision.ts) and adds it
 *   to its kind's counts; ends `Decided`.
 * - `erasure-run` (started by the second person's approval): judges every record again at the decision's time, with
 *   the holds as they are now (a hold placed since keeps what it covers, and the report says so), and destroys what
 *   is still to erase through the retention job's own disposal (dispose.ts): each with its disposal record, whose run
 *   id names the request (`erasure-<reference>`); ends `Completed`.
 *
 * Each page's counts and the walk's position are written to the request, conditional on the step it read, so an
 * invocation that runs out of budget hands over to the next from there, and the job-sweep resumes one that died (a
 * running-job marker from start to end, removed in the same transaction as the end). Two invocations at once cannot
 * both count a page: the slower one's write is refused and it stops.
 */

export const ERASURE_DECISION_JOB = 'erasure-decision';
export const ERASURE_RUN_JOB = 'erasure-run';

export type ErasureJobDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'logger' | 'jobs' | 'config'>;

const DEFAULT_BATCH = 100;

const ErasureJobInput = z.object({
  client: ClientId,
  erasure_request_reference: Ulid,
  batch: z.int().min(1).max(1000).optional(),
  budget_ms: z.int().min(0).optional(),
  /** The decision's time (tests judge at a chosen time; otherwise the clock's). */
  now: z.iso.datetime().optional(),
});
type ErasureJobInput = z.infer<typeof ErasureJobInput>;

/** The run id of a request's disposal records (`GET disposals?run_id=…` lists them). */
export const erasureRunId = (reference: string) => `erasure-${reference}`;

/** One phase of the walk: the states it works in, how it treats a page, and how it ends. */
interface Phase {
  job: string;
  kind: RunningJobKind;
  /** The state while walking. */
  walking: ErasureState;
  /** The state it ends in. */
  ended: ErasureState;
  act(deps: ErasureJobDependencies, request: ErasureRequestItem, judge: Judge, outcome: ErasureKindOutcome, items: readonly TableItem[]): Promise<number>;
}

/** The decision: every record judged and counted; nothing written but the request. */
const decide: Phase = {
  job: ERASURE_DECISION_JOB,
  kind: 'erasure-decision',
  walking: 'Deciding',
  ended: 'Decided',
  async act(_deps, _request, judge, outcome, items) {
    for (const item of items) {
      const judged = await judge.judge(item);
      if (judged === undefined) continue;
      outcome.found += 1;
      if (judged.verdict.verdict === 'erase') outcome.to_erase += 1;
      else addKept(outcome, judged.verdict);
    }
    return items.length;
  },
};

/** Far enough ahead that no record's time is past it: the erasure disposes of what the decision judged, whatever its age. */
const ANY_TIME = '9999-12-31T23:59:59.999Z';

/** The rule a disposal names: the record type's own, or (no rule: no period) one naming no period. */
function ruleOfRecord(judge: Judge, judged: Judged): RetentionRule {
  const record = judged.record as NonNullable<Judged['record']>;
  return ruleFor(judge.rules, record) ?? { recordType: record.recordType as RetentionRule['recordType'], payloadType: record.payloadType, kind: Object.keys(record.bases)[0] ?? RECORD_TIME, requiredReceipts: 0, requiredTransfers: 0 };
}

/** The marker a disposal counts from: the record's own for the rule's kind (or any it has, or one at `now`). */
function markerOf(client: string, judged: Judged, rule: RetentionRule, stage: DueStage, now: string): RetentionDueItem {
  const record = judged.record as NonNullable<Judged['record']>;
  const markers = markersOf(client, record, stage);
  return (
    markers.find((marker) => marker.kind === rule.kind) ??
    markers[0] ?? { client, record_type: record.recordType, kind: rule.kind, stage, base_time: now, record_pk: record.key.pk, record_sk: record.key.sk, reference: record.reference }
  );
}

/** What keeps a record retention's own checks refused to dispose of at erase time, in words. */
const REFUSED: Partial<Record<string, string>> = {
  active: 'still in use: retention keeps it (a person still holding a device)',
  locked: "its recording's Object Lock retention is still in force",
  requirements: 'the policy requires its receipts or transfers first',
  state: 'not in a state retention disposes of (an upload that failed or was quarantined)',
  recent: 'disposed of by retention at the same time',
};

/** Whether the decision named this hold for this kind (a hold it did not name was placed after the decision). */
function decisionNamedHold(request: ErasureRequestItem, kind: string, target: { targetType: string; target: string }): boolean {
  const decided = request.decision_outcomes?.find((outcome) => outcome.kind === kind);
  return decided?.kept.some((entry) => entry.holds?.some((hold) => hold.target_type === target.targetType && hold.target === target.target)) === true;
}

/** The run: every record judged again; those still to erase destroyed through retention's disposal. */
const erase: Phase = {
  job: ERASURE_RUN_JOB,
  kind: 'erasure-run',
  walking: 'Erasing',
  ended: 'Completed',
  async act(deps, request, judge, outcome, items) {
    const client = request.client;
    const now = deps.clock.now().toISOString();
    const refusal = disposalRefusal(deps, client);
    const runId = erasureRunId(request.erasure_request_reference);
    const plans: Array<{ plan: PlannedDisposal; time: string | undefined }> = [];
    for (const item of items) {
      const judged = await judge.judge(item);
      if (judged === undefined) continue;
      outcome.found += 1;
      const { verdict } = judged;
      if (verdict.verdict === 'kept') {
        addKept(outcome, verdict, verdict.exception === 'LegalHold' && !decisionNamedHold(request, outcome.kind, verdict.hold));
        continue;
      }
      const stage = stageOf(item) as DueStage;
      const rule = ruleOfRecord(judge, judged);
      const marker = markerOf(client, judged, rule, stage, now);
      const pass: DuePass = { rule, action: 'Destroyed', stage, cutoff: ANY_TIME, runAt: now };
      const planned = await planDisposal(deps, { client, pass, refusal, runId }, marker, item);
      if ('operations' in planned) {
        plans.push({ plan: planned, time: marker.base_time });
        continue;
      }
      if (planned.outcome === 'held' && 'hold' in planned && planned.hold !== undefined) {
        addKept(outcome, { verdict: 'kept', exception: 'LegalHold', hold: planned.hold }, true);
      } else if (planned.outcome === 'held') {
        // The recording's object carries an S3 legal hold placed since the holds were read.
        addKept(outcome, { verdict: 'kept', exception: 'LegalObligation', rule: 'its recording is under an object legal hold' }, false);
      } else if (planned.outcome !== 'stale') {
        addKept(outcome, { verdict: 'kept', exception: 'LegalObligation', rule: `${rule.recordType}: ${REFUSED[planned.outcome] ?? planned.outcome}` });
      }
    }
    const outcomes = await writeDisposals(deps, client, plans.map(({ plan }) => plan));
    // writeDisposals answers raced disposals first, then each written one in order: count the written ones.
    const written = outcomes.filter((result) => result === 'destroyed' || result === 'deleted' || result === 'purge_pending').length;
    outcome.erased += written;
    // A disposal another run wrote first (raced) is gone all the same: every planned record's time bounds the period.
    for (const { time } of plans) addErasedTime(outcome, time);
    return items.length;
  },
};

/** The condition that the request is still at the step this invocation read (absent before the first). */
function atStep(step: number): WriteCondition {
  return {
    kind: 'expression',
    expression: step === 0 ? 'attribute_not_exists(#step) OR #step = :step' : '#step = :step',
    names: { '#step': 'walk_step' },
    values: { ':step': step },
  };
}

const stepOf = (item: TableItem): number => (typeof item.walk_step === 'number' ? item.walk_step : 0);

/**
 * Walks one phase from where the request says it stands, writing each page's counts and position; hands over to a
 * new invocation when its budget is spent; ends the phase (state and marker removal in one transaction).
 */
async function walkPhase(deps: ErasureJobDependencies, phase: Phase, input: ErasureJobInput, first: TableItem): Promise<Record<string, unknown>> {
  const started = Date.now();
  const budget = input.budget_ms ?? jobBudgetMs(deps.config);
  const batch = input.batch ?? DEFAULT_BATCH;
  const { client, erasure_request_reference: reference } = input;
  const tracked: TrackedJob = { client, kind: phase.kind, id: reference, job: phase.job, input: { client, erasure_request_reference: reference, batch, ...(input.budget_ms === undefined ? {} : { budget_ms: input.budget_ms }) } };
  await renewTrackedJob(deps, tracked, budget);
  let stored = first;
  let request = readErasureRequest(stored);
  const judge = await judgeOf(deps, client, request.decision_time ?? deps.clock.now().toISOString());
  for (;;) {
    const cursor = request.cursor ?? { kind_index: 0 };
    const kind = WALKED_KINDS[cursor.kind_index];
    const outcomes = request.outcomes.map((outcome) => ({ ...outcome, kept: outcome.kept.map((entry) => ({ ...entry })) }));
    let walked = 0;
    let next: typeof cursor | undefined;
    if (kind !== undefined) {
      const page = await pageOf(deps, client, request.device_user_reference, kind, batch, cursor.start_key);
      let outcome = outcomes.find((entry) => entry.kind === kind.kind);
      if (outcome === undefined) outcomes.push((outcome = emptyOutcome(kind.kind, kind.recordType)));
      walked = await phase.act(deps, request, judge, outcome, page.items);
      next = page.lastKey === undefined ? { kind_index: cursor.kind_index + 1 } : { kind_index: cursor.kind_index, start_key: page.lastKey };
    }
    const done = (request.progress?.done ?? 0) + walked;
    const step = stepOf(stored);
    const finished = next === undefined || next.kind_index >= WALKED_KINDS.length;
    const now = deps.clock.now().toISOString();
    const updated: ErasureRequestItem = {
      ...request,
      outcomes,
      progress: { phase: phase.walking === 'Deciding' ? 'Deciding' : 'Erasing', done, ...(finished ? { total: done } : {}) },
      ...(finished ? { erasure_state: phase.ended } : { cursor: next }),
      ...(finished && phase === decide ? { decided_at: now } : {}),
      ...(finished && phase === erase ? { completed_at: now } : {}),
    };
    if (finished) delete updated.cursor;
    const item = { ...erasureRequestToItem(updated), walk_step: step + 1 };
    const operations: TransactOperation[] = [{ kind: 'put', item, condition: atStep(step) }];
    if (finished) operations.push(endMarkerOperation(client, phase.kind, reference));
    // Completed, the request has ended: its retention marker (ErasureRequestData, from now) is written with it.
    if (finished && phase === erase) operations.push(...dueMarkerPuts(client, item));
    try {
      await deps.table.transactWrite(operations);
    } catch (error) {
      // Another invocation of this walk got there first (a resumption beside a slow invocation): it goes on.
      if (error instanceof ConditionFailedError) return { superseded: true };
      throw error;
    }
    if (finished) return { erasure_state: phase.ended, records: done };
    stored = item;
    request = updated;
    if (Date.now() - started >= budget) {
      await renewTrackedJob(deps, tracked);
      await deps.jobs.start(phase.job, tracked.input);
      return { continued: true, records: done };
    }
  }
}

async function readRequest(deps: ErasureJobDependencies, input: ErasureJobInput): Promise<TableItem | undefined> {
  return deps.table.get(erasureRequestKeys.key(input.client, input.erasure_request_reference), { consistent: true });
}

/** Ends a job whose request is not (or no longer) in a state it works in: its marker goes. */
async function notMine(deps: ErasureJobDependencies, phase: Phase, input: ErasureJobInput, state: string): Promise<Record<string, unknown>> {
  await deps.table.transactWrite([endMarkerOperation(input.client, phase.kind, input.erasure_request_reference)]);
  return { skipped: state };
}

/** Job `erasure-decision`: `Recorded` → `Deciding` (the decision's time fixed) → `Decided`. */
export async function erasureDecisionJob(deps: ErasureJobDependencies, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const input = ErasureJobInput.parse(raw);
  const stored = await readRequest(deps, input);
  if (stored === undefined) return notMine(deps, decide, input, 'missing');
  const request = readErasureRequest(stored);
  if (request.erasure_state === 'Recorded') {
    const step = stepOf(stored);
    const deciding: ErasureRequestItem = {
      ...request,
      erasure_state: 'Deciding',
      decision_time: input.now ?? deps.clock.now().toISOString(),
      outcomes: WALKED_KINDS.map((kind) => emptyOutcome(kind.kind, kind.recordType)),
      cursor: { kind_index: 0 },
      progress: { phase: 'Deciding', done: 0 },
    };
    const item = { ...erasureRequestToItem(deciding), walk_step: step + 1 };
    try {
      await deps.table.put(item, { condition: atStep(step) });
    } catch (error) {
      if (error instanceof ConditionFailedError) return { superseded: true };
      throw error;
    }
    return walkPhase(deps, decide, input, item);
  }
  if (request.erasure_state !== 'Deciding') return notMine(deps, decide, input, request.erasure_state);
  return walkPhase(deps, decide, input, stored);
}

/** Job `erasure-run`: `Approved` → `Erasing` (the decision kept aside) → `Completed`. */
export async function erasureRunJob(deps: ErasureJobDependencies, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const input = ErasureJobInput.parse(raw);
  const stored = await readRequest(deps, input);
  if (stored === undefined) return notMine(deps, erase, input, 'missing');
  const request = readErasureRequest(stored);
  if (request.erasure_state === 'Approved') {
    const step = stepOf(stored);
    const erasing: ErasureRequestItem = {
      ...request,
      erasure_state: 'Erasing',
      decision_outcomes: request.outcomes,
      // The run counts again what it finds, keeps and erases; what the decision marked stays as decided.
      outcomes: request.outcomes.map((outcome) => ({ ...outcome, found: 0, erased: 0, kept: [] })),
      run_id: erasureRunId(request.erasure_request_reference),
      cursor: { kind_index: 0 },
      progress: { phase: 'Erasing', done: 0 },
    };
    const item = { ...erasureRequestToItem(erasing), walk_step: step + 1 };
    try {
      await deps.table.put(item, { condition: atStep(step) });
    } catch (error) {
      if (error instanceof ConditionFailedError) return { superseded: true };
      throw error;
    }
    return walkPhase(deps, erase, input, item);
  }
  if (request.erasure_state !== 'Erasing') return notMine(deps, erase, input, request.erasure_state);
  return walkPhase(deps, erase, input, stored);
}
