import * as z from 'zod';
import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { allClients } from '#core/store/all-clients.ts';
import { readRetentionDue, recordKeyOf } from '#core/store/entities/retention-due.ts';
import { keys } from '#core/store/keys.ts';
import { ClientId } from '#shared/contract/fields.ts';
import type { HoldTarget } from '../legal-holds/coverage.ts';
import { parkHeldRecords } from '../legal-holds/parked-markers.ts';
import { retainedRecordOf, type RetainedRecord } from './due-index.ts';
import { backfillLists, indexAuditTrails, putMissingMarkers } from './due-backfill.ts';
import { planDisposal, purgeObjects, writeDisposals, type DisposeOutcome, type PlannedDisposal } from './dispose.ts';
import { disposalRefusal } from './disposal-decision.ts';
import { batchPurgeSteps } from './record-changes/bulk-purge.ts';
import { getRetentionPolicy } from './retention-policy.ts';
import { deletePasses, destroyPasses, dueRange, rulesOf, type RetentionRule } from './retention-rules.ts';

/**
 * Job `retention` (daily, lib/config/job-schedules.ts; docs/decisions.md "Retention job"). Per tenant: first the
 * objects of payloads destroyed earlier whose removal failed, then every destruction pass, then every deletion pass,
 * each one Query on the due index up to its cutoff, `batch` markers a page. Skips what an active legal hold covers and
 * payloads short of their required receipts or transfers. Before its time runs out it starts itself again from where
 * it stopped (the tenants left, the step, the Query position), with the same run id and the same `now`.
 *
 * `{ backfill: true }` instead walks the existing lists of every retained entity and puts the markers they lack.
 */

export type RetentionJobDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'logger' | 'jobs'>;

export const RETENTION_JOB = 'retention';

const DEFAULT_BATCH = 100;
/** An invocation stops starting new pages after this long (the jobs function may run 5 minutes). */
const DEFAULT_BUDGET_MS = 3 * 60 * 1000;
/** Records planned at once within a page (each may read its holds and requirements). */
const PARALLEL_RECORDS = 16;

const Resume = z.object({
  clients: z.array(ClientId),
  step: z.int().min(0),
  start_key: z.record(z.string(), z.string()).optional(),
});
type Resume = z.infer<typeof Resume>;

const RetentionJobInput = z.object({
  client: ClientId.optional(),
  now: z.iso.datetime().optional(),
  batch: z.int().min(1).max(1000).optional(),
  budget_ms: z.int().min(0).optional(),
  backfill: z.boolean().optional(),
  run_id: z.string().max(64).optional(),
  resume: Resume.optional(),
});
type RetentionJobInput = z.infer<typeof RetentionJobInput>;

type Counts = Partial<Record<DisposeOutcome | 'indexed' | 'purged' | 'parked', number>>;

function count(counts: Counts, outcome: keyof Counts, by = 1): void {
  counts[outcome] = (counts[outcome] ?? 0) + by;
}

/** One step of a tenant's run: a Query to walk and what to do with each item of it. */
interface Step {
  query: QuerySpec;
  act: (items: readonly TableItem[]) => Promise<void>;
}

/** One tenant's part of a run: the tenant, the run's time and id, and the counts it adds to. */
interface TenantRun {
  client: string;
  now: Date;
  runId: string;
  counts: Counts;
}

/** The steps of one tenant's disposal run under its current policy. */
function disposalSteps(deps: RetentionJobDependencies, { client, now, runId, counts }: TenantRun, rules: RetentionRule[]): Step[] {
  // The decision is the one the preview counts (disposal-decision.ts).
  const refusal = disposalRefusal(deps, client);
  const passes = [...rules.flatMap((rule) => destroyPasses(rule, now)), ...rules.flatMap((rule) => deletePasses(rule, now))];
  return passes.map((pass) => ({
    query: { ...keys.retentionDue.list(client, { recordType: pass.rule.recordType, payloadType: pass.rule.payloadType, kind: pass.rule.kind, stage: pass.stage }), sort: { between: dueRange(pass) } },
    act: async (items) => {
      // The page's records in one batch read, planned a few at a time, then written several to a transaction.
      const markers = items.map(readRetentionDue);
      const records = new Map((await deps.table.batchGet(markers.map(recordKeyOf))).map((record) => [`${record.pk}\n${record.sk}`, record]));
      const plans: PlannedDisposal[] = [];
      const held: Array<{ record: RetainedRecord; hold: HoldTarget }> = [];
      for (let start = 0; start < markers.length; start += PARALLEL_RECORDS) {
        const slice = markers.slice(start, start + PARALLEL_RECORDS);
        const planned = await Promise.all(slice.map((marker) => planDisposal(deps, { client, pass, refusal, runId }, marker, records.get(`${marker.record_pk}\n${marker.record_sk}`))));
        for (const [index, plan] of planned.entries()) {
          if ('operations' in plan) {
            plans.push(plan);
            continue;
          }
          count(counts, plan.outcome);
          // Held by a legal hold (not only by its object's lock): park its markers, so later runs do not read it again.
          if (plan.outcome !== 'held' || !('hold' in plan) || plan.hold === undefined) continue;
          const marker = slice[index] as (typeof slice)[number];
          const item = records.get(`${marker.record_pk}\n${marker.record_sk}`);
          const record = item === undefined ? undefined : retainedRecordOf(item);
          if (record !== undefined) held.push({ record, hold: plan.hold });
        }
      }
      for (const outcome of await writeDisposals(deps, client, plans)) count(counts, outcome);
      count(counts, 'parked', await parkHeldRecords(deps, client, held));
    },
  }));
}

/** The steps of one tenant: retry pending object removals, then the disposal passes (or, for a backfill, the lists). */
async function stepsOf(deps: RetentionJobDependencies, run: TenantRun, input: RetentionJobInput): Promise<Step[]> {
  const { client, counts } = run;
  if (input.backfill === true) {
    return backfillLists(client).map(({ list }) => ({ query: list, act: async (items) => count(counts, 'indexed', await putMissingMarkers(deps, client, items)) }));
  }
  const purge: Step = {
    query: keys.retentionDue.list(client, { recordType: 'PayloadData', kind: 'purge', stage: 'PURGE' }),
    act: async (items) => {
      for (const item of items) if (await purgeObjects(deps, client, readRetentionDue(item))) count(counts, 'purged');
    },
  };
  const policy = await getRetentionPolicy(deps, client);
  // Last, the parts of migrations and transfer runs destroyed earlier, a page a step (record-changes/bulk-purge.ts).
  return [purge, ...disposalSteps(deps, run, rulesOf(policy)), ...(await batchPurgeSteps(deps, client, (by) => count(counts, 'purged', by)))];
}

async function tenantsOf(deps: RetentionJobDependencies, input: RetentionJobInput): Promise<string[]> {
  if (input.resume !== undefined) return input.resume.clients;
  if (input.client !== undefined) return [input.client];
  const clients: string[] = [];
  for await (const client of allClients(deps.table)) clients.push(client);
  return clients;
}

/** Runs (or continues) the retention job; answers what it did. */
export async function retentionJob(deps: RetentionJobDependencies, raw: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const input = RetentionJobInput.parse(raw);
  const started = Date.now();
  const budget = input.budget_ms ?? DEFAULT_BUDGET_MS;
  const batch = input.batch ?? DEFAULT_BATCH;
  const now = input.now === undefined ? deps.clock.now() : new Date(input.now);
  const runId = input.run_id ?? ulid(now.getTime());
  const counts: Counts = {};
  const clients = await tenantsOf(deps, input);
  let resume: Resume | undefined = input.resume;
  for (let index = 0; index < clients.length; index += 1) {
    const client = clients[index] as string;
    if (input.backfill !== true && resume === undefined) count(counts, 'indexed', await indexAuditTrails(deps, client, batch));
    const steps = await stepsOf(deps, { client, now, runId, counts }, input);
    for (let step = resume?.step ?? 0; step < steps.length; step += 1) {
      const { query, act } = steps[step] as Step;
      let startKey = resume?.start_key;
      resume = undefined;
      do {
        const page = await deps.table.query({ ...query, limit: batch, ...(startKey ? { startKey } : {}) });
        await act(page.items);
        startKey = page.lastKey;
        if (Date.now() - started >= budget && (startKey !== undefined || step + 1 < steps.length || index + 1 < clients.length)) {
          const next: Resume =
            startKey !== undefined
              ? { clients: clients.slice(index), step, start_key: startKey }
              : step + 1 < steps.length
                ? { clients: clients.slice(index), step: step + 1 }
                : { clients: clients.slice(index + 1), step: 0 };
          await deps.jobs.start(RETENTION_JOB, { ...(input.backfill === true ? { backfill: true } : {}), now: now.toISOString(), batch, budget_ms: budget, run_id: runId, resume: next });
          return { run_id: runId, continued: true, ...counts };
        }
      } while (startKey !== undefined);
    }
    resume = undefined;
  }
  return { run_id: runId, clients: clients.length, continued: false, ...counts };
}
