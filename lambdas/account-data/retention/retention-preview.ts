import type { Dependencies } from '#core/dependencies.ts';
import { ValidationError } from '#core/errors.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { activeHoldTargets } from '#core/store/held-by.ts';
import { readRetentionDue, recordKeyOf, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { keys } from '#core/store/keys.ts';
import type { DueCount, DueUnderPolicy, KeptCount, RetentionKeptReason, RetentionPolicyRequest, RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { decideDisposal, disposalRefusal, type JudgedPass, type KeptOutcome } from './disposal-decision.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { stageOf } from './due-index.ts';
import { getRetentionPolicy, retentionProblems } from './retention-policy.ts';
import { deletePasses, destroyPasses, dueRange, rulesOf, type DuePass, type RetentionRule } from './retention-rules.ts';

/**
 * `POST account/retention/preview`: what the next run would do under a proposed policy, beside the current one, per
 * record type (per payload type for PayloadData). Each pass reads exactly the markers the job's Query reads (the due
 * index up to the pass's cutoff; never a Scan), plus the markers parked under the tenant's active holds that the pass
 * would reach, and decides every record with the job's own decision (disposal-decision.ts) without writing: deleted,
 * destroyed, or kept and why. So the preview and the run cannot disagree. A pass stops at PREVIEW_COUNT_CAP records
 * ("more than").
 */

/** Records decided per pass at most: each may read its holds, requirements and object lock. */
export const PREVIEW_COUNT_CAP = 2_000;
/** Markers a page (a BatchGet reads up to 100 records). */
const PAGE = 100;
/** Passes decided at once, and records decided at once within a page. */
const PARALLEL_PASSES = 4;
const PARALLEL_RECORDS = 16;
/** Parked markers read at most (a tenant's held records; far fewer in practice). */
const PARKED_CAP = 20_000;

type PreviewDependencies = Pick<Dependencies, 'table' | 'clock' | 'blobs' | 'logger'>;

const REASON_OF: Record<KeptOutcome, RetentionKeptReason | undefined> = {
  held: 'legal_hold',
  locked: 'object_lock',
  requirements: 'requirements',
  active: 'in_use',
  state: 'not_settled',
  // Deleted by this very run: never met by a preview (no run is under way at its time).
  recent: undefined,
};

/** What one pass comes to: records it disposes of, and those it keeps by reason. */
interface PassTally {
  disposed: number;
  kept: Map<RetentionKeptReason, number>;
  more: boolean;
}

function queryOf(client: string, pass: DuePass): QuerySpec {
  const { rule } = pass;
  return {
    ...keys.retentionDue.list(client, {
      recordType: rule.recordType,
      payloadType: rule.payloadType,
      kind: rule.kind,
      stage: pass.stage,
    }),
    sort: { between: dueRange(pass) },
  };
}

/** The markers parked under the tenant's active holds, with their records (read once per preview). */
interface Parked {
  marker: RetentionDueItem;
  item: TableItem | undefined;
}

async function parkedMarkers(deps: PreviewDependencies, client: string): Promise<Parked[]> {
  const markers: RetentionDueItem[] = [];
  for (const hold of await activeHoldTargets(deps, client)) {
    let startKey: Record<string, string> | undefined;
    do {
      const page = await deps.table.query({
        ...keys.retentionDue.listHeld(client, {
          targetType: hold.target_type,
          target: hold.target,
        }),
        limit: 1_000,
        ...(startKey ? { startKey } : {}),
      });
      markers.push(...page.items.map(readRetentionDue));
      startKey = page.lastKey;
    } while (startKey !== undefined && markers.length < PARKED_CAP);
  }
  const records = new Map<string, TableItem>();
  for (let start = 0; start < markers.length; start += PAGE) {
    for (const item of await deps.table.batchGet(markers.slice(start, start + PAGE).map(recordKeyOf))) records.set(`${item.pk}\n${item.sk}`, item);
  }
  return markers.map((marker) => ({
    marker,
    item: records.get(`${marker.record_pk}\n${marker.record_sk}`),
  }));
}

/** Parked markers this pass would reach were they in its range: the rule's type and kind, due, in the pass's stage. */
function parkedFor(parked: readonly Parked[], pass: DuePass): Parked[] {
  const { rule } = pass;
  return parked.filter(
    ({ marker, item }) =>
      marker.record_type === rule.recordType &&
      marker.payload_type === rule.payloadType &&
      marker.kind === rule.kind &&
      marker.base_time <= pass.cutoff &&
      item !== undefined &&
      stageOf(item) === pass.stage,
  );
}

async function tallyPass(deps: PreviewDependencies, judged: JudgedPass, parked: readonly Parked[]): Promise<PassTally> {
  const { client, pass } = judged;
  const tally: PassTally = { disposed: 0, kept: new Map(), more: false };
  let decided = 0;
  const decide = async (entries: readonly Parked[]) => {
    for (let start = 0; start < entries.length; start += PARALLEL_RECORDS) {
      const decisions = await Promise.all(entries.slice(start, start + PARALLEL_RECORDS).map(({ marker, item }) => decideDisposal(deps, judged, marker, item)));
      for (const decision of decisions) {
        if (decision.outcome === 'deleted' || decision.outcome === 'destroyed') tally.disposed += 1;
        else if (decision.outcome !== 'stale' && decision.outcome !== 'rebased') {
          const reason = REASON_OF[decision.outcome];
          if (reason !== undefined) tally.kept.set(reason, (tally.kept.get(reason) ?? 0) + 1);
        }
        // Gone, or moved on past the cutoff: not due, so neither disposed of nor kept.
      }
    }
  };
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({
      ...queryOf(client, pass),
      limit: Math.min(PAGE, PREVIEW_COUNT_CAP - decided),
      ...(startKey ? { startKey } : {}),
    });
    const markers = page.items.map(readRetentionDue);
    const records = new Map((await deps.table.batchGet(markers.map(recordKeyOf))).map((item) => [`${item.pk}\n${item.sk}`, item]));
    await decide(
      markers.map((marker) => ({
        marker,
        item: records.get(`${marker.record_pk}\n${marker.record_sk}`),
      })),
    );
    decided += markers.length;
    startKey = page.lastKey;
  } while (startKey !== undefined && decided < PREVIEW_COUNT_CAP);
  // Stopped at the cap: "more" only when a record is really left (a full last page names a next key either way).
  if (startKey !== undefined) tally.more = (await deps.table.query({ ...queryOf(client, pass), limit: 1, startKey })).items.length > 0;
  const fromParked = parkedFor(parked, pass);
  await decide(fromParked.slice(0, Math.max(0, PREVIEW_COUNT_CAP - decided)));
  if (decided + fromParked.length > PREVIEW_COUNT_CAP) tally.more = true;
  return tally;
}

const capped = (count: number, more: boolean): DueCount => (count > PREVIEW_COUNT_CAP ? { count: PREVIEW_COUNT_CAP, more: true } : { count, more });

/** A rule's passes of one action summed into the preview's figures. */
function underRule(deletions: readonly PassTally[], destructions: readonly PassTally[]): DueUnderPolicy {
  const total = (tallies: readonly PassTally[]) =>
    capped(
      tallies.reduce((all, one) => all + one.disposed, 0),
      tallies.some((one) => one.more),
    );
  const kept: KeptCount[] = [];
  for (const [instead, tallies] of [
    ['Deleted', deletions],
    ['Destroyed', destructions],
  ] as const) {
    const reasons = new Map<RetentionKeptReason, number>();
    for (const tally of tallies) for (const [reason, count] of tally.kept) reasons.set(reason, (reasons.get(reason) ?? 0) + count);
    const more = tallies.some((one) => one.more);
    for (const [reason, count] of reasons) kept.push({ reason, instead_of: instead, ...capped(count, more) });
  }
  return { deleted: total(deletions), destroyed: total(destructions), kept };
}

const rowKey = (rule: RetentionRule) => `${rule.recordType}#${rule.payloadType ?? ''}`;

/** Runs work at most `limit` at a time. */
function limiter(limit: number) {
  const pending: Array<() => void> = [];
  let running = 0;
  return <T>(work: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running += 1;
        work()
          .then(resolve, reject)
          .finally(() => {
            running -= 1;
            pending.shift()?.();
          });
      };
      if (running < limit) start();
      else pending.push(start);
    });
}

export async function previewRetention(caller: TenantCaller, proposed: RetentionPolicyRequest): Promise<RetentionPreview> {
  const { deps, tenant: client } = caller;
  const problems = retentionProblems(proposed);
  if (problems.length > 0) throw new ValidationError(problems);
  const now = deps.clock.now();
  const currentRules = new Map(rulesOf(await getRetentionPolicy(deps, client)).map((rule) => [rowKey(rule), rule]));
  const proposedRules = rulesOf(proposed);
  // One decision for the whole preview: the holds and people it reads are read once.
  const refusal = disposalRefusal(deps, client);
  const parked = await parkedMarkers(deps, client);

  // The same pass (partition, cutoff, action and requirements) asked by both policies is decided once.
  const tallies = new Map<string, Promise<PassTally>>();
  const limited = limiter(PARALLEL_PASSES);
  const tallyOf = (pass: DuePass) => {
    const id = [queryOf(client, pass).partition, pass.cutoff, pass.action, pass.rule.requiredReceipts, pass.rule.requiredTransfers].join('|');
    let answer = tallies.get(id);
    if (answer === undefined) tallies.set(id, (answer = limited(() => tallyPass(deps, { client, pass, refusal }, parked))));
    return answer;
  };
  const dueUnder = async (rule: RetentionRule): Promise<DueUnderPolicy> => {
    const [deletions, destructions] = await Promise.all([Promise.all(deletePasses(rule, now).map(tallyOf)), Promise.all(destroyPasses(rule, now).map(tallyOf))]);
    return underRule(deletions, destructions);
  };
  const rows = await Promise.all(
    proposedRules.map(async (rule) => {
      const current = currentRules.get(rowKey(rule)) ?? rule;
      const [currentDue, proposedDue] = await Promise.all([dueUnder(current), dueUnder(rule)]);
      return {
        record_type: rule.recordType,
        ...(rule.payloadType === undefined
          ? {}
          : {
              payload_type: rule.payloadType as NonNullable<RetentionPreview['rows'][number]['payload_type']>,
            }),
        current: currentDue,
        proposed: proposedDue,
      };
    }),
  );
  return { as_of: now.toISOString(), count_cap: PREVIEW_COUNT_CAP, rows };
}
