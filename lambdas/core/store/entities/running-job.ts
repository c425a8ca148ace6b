import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named index: the tenant's running jobs by the time their lease runs out. */
export const RUNNING_JOB_INDEXES = { byLease: 'gsi1' } as const;

const runningPartition = (client: string) => `${tenantPrefix(client)}RUNNING_JOBS`;

/**
 * Long jobs that are running (lambdas/jobs/running-jobs.ts): one small marker per job from its start to its end, in
 * the tenant's `RUNNING_JOBS` partition under `JOB#<kind>#<id>`, and on byLease in a partition of the same name by the
 * time its lease runs out. The job-sweep reads only the markers whose lease has run out (a key range up to now: a
 * Query, never a Scan); a scheduled transfer reads its tenant's running transfers (a prefix of a small partition).
 */
export const runningJobKeys = {
  item: (client: string, kind: string, id: string, leaseUntil: Date | string): ItemKeys => ({
    ...runningJobKeys.key(client, kind, id),
    entity: ENTITY.runningJob,
    ...onIndex[RUNNING_JOB_INDEXES.byLease](runningPartition(client), timeSort(leaseUntil, `${kind}#${id}`)),
  }),
  key: (client: string, kind: string, id: string): ItemKey => ({ pk: runningPartition(client), sk: `JOB#${part(kind)}#${part(id)}` }),
  /** The tenant's running jobs of one kind. */
  list: (client: string, kind: string): ListKey => ({ partition: runningPartition(client), sort: { beginsWith: `JOB#${part(kind)}#` } }),
  /** The tenant's running jobs by the time their lease runs out, soonest first. */
  listByLease: (client: string): ListKey => list(RUNNING_JOB_INDEXES.byLease, runningPartition(client)),
};

/** The long jobs the job-sweep watches (lambdas/jobs/job-sweep.ts has one resumer per kind). */
export const RUNNING_JOB_KINDS = ['transfer', 'migration', 'legal-hold-sync', 'object-retention-sync', 'production', 'activity-export', 'supervision-apply', 'supervision-daily', 'erasure-decision', 'erasure-run'] as const;
export const runningJobKindSchema = /* @__PURE__ */ onFirstUse(() => z.enum(RUNNING_JOB_KINDS));
export type RunningJobKind = z.infer<ReturnType<typeof runningJobKindSchema>>;

/**
 * A long job that has started and not ended (`keys.runningJob`; lambdas/jobs/running-jobs.ts has the why). Written
 * before the job's first invocation and renewed by each invocation (with the job's own lease where it has one),
 * removed in the same transaction as the job's end. Its lease running out with the marker still there means the
 * invocation died: the job-sweep resumes the job with `input`.
 */
export const runningJobItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  kind: runningJobKindSchema(),
  /** The job's own id within its kind (transfer id, migration reference, hold target, sync run). */
  id: z.string(),
  /** The job's name and the input that resumes it (the last hand-over's, so a resumption goes on from there). */
  job: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** Which run of the job this marker is for, where a newer run supersedes an older (a legal hold's walk). */
  run: z.string().optional(),
  lease_until: z.string(),
  /** Resumptions by the sweep, and those since the job last made progress (the limit counts these). */
  resumptions: z.int().min(0).optional(),
  stalled: z.int().min(0).optional(),
  /** The job's progress as the sweep last saw it (each kind's own mark: a checkpoint, files handled). */
  progress: z.string().optional(),
  resumed_at: z.string().optional(),
}));
export type RunningJobItem = z.infer<ReturnType<typeof runningJobItemSchema>>;

export function readRunningJob(item: TableItem): RunningJobItem {
  return readItem('RunningJob', runningJobItemSchema(), item);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const runningJobModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.runningJob,
  title: 'Running long job, from its start to its end (transfer, migration, legal-hold walk, object-retention sync)',
  module: 'running-job.ts',
  indexes: RUNNING_JOB_INDEXES,
  items: [{ example: () => runningJobKeys.item(EXAMPLE_CLIENT, '<kind>', '<id>', '<lease_until>') }],
  accessPatterns: [
    {
      name: 'Long jobs whose invocation died (lease run out, no end)',
      serves: 'the `job-sweep` job (every 5 minutes, and at local start-up): sort key between `0` and now',
      builders: ['keys.runningJob.listByLease'],
      example: () => runningJobKeys.listByLease(EXAMPLE_CLIENT),
    },
    {
      name: 'A configuration\'s run that has not ended',
      serves: 'a scheduled `transfer` job, before recording a run (the tenant\'s running transfers only)',
      builders: ['keys.runningJob.list'],
      example: () => runningJobKeys.list(EXAMPLE_CLIENT, 'transfer'),
    },
  ],
}));
