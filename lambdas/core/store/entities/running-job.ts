import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { readItem } from './read-item.ts';

/** The long jobs the job-sweep watches (lambdas/jobs/job-sweep.ts has one resumer per kind). */
export const RUNNING_JOB_KINDS = ['transfer', 'migration', 'legal-hold-sync', 'object-retention-sync'] as const;
export const RunningJobKind = z.enum(RUNNING_JOB_KINDS);
export type RunningJobKind = z.infer<typeof RunningJobKind>;

/**
 * A long job that has started and not ended (`keys.runningJob`; lambdas/jobs/running-jobs.ts has the why). Written
 * before the job's first invocation and renewed by each invocation (with the job's own lease where it has one),
 * removed in the same transaction as the job's end. Its lease running out with the marker still there means the
 * invocation died: the job-sweep resumes the job with `input`.
 */
export const RunningJobItem = z.object({
  client: z.string(),
  kind: RunningJobKind,
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
});
export type RunningJobItem = z.infer<typeof RunningJobItem>;

export function readRunningJob(item: TableItem): RunningJobItem {
  return readItem('RunningJob', RunningJobItem, item);
}
