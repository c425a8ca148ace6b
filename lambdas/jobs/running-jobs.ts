import type { Config } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import type { RunningJobKind } from '#core/store/entities/running-job.ts';
import { keys } from '#core/store/keys.ts';

/**
 * Jobs that always finish (docs/decisions.md "Jobs that always finish"). A long job (a transfer, a migration, a legal
 * hold's walk, an object-retention sync) runs as a chain of invocations, each handing over to the next before its
 * budget ends. An invocation that dies (killed, timed out after its retries, a start that was throttled) breaks the
 * chain, and nothing would pick it up again. So every long job keeps a marker (`keys.runningJob`) from before its first
 * invocation to its end: each invocation renews the marker's lease (with the job's own lease where it has one, in the
 * same transaction), and the job's end removes it in the same transaction as the end itself. A marker whose lease has
 * run out is a job whose invocation died: the job-sweep (./job-sweep.ts) finds it by Query and resumes the job.
 *
 * This module is small on purpose: request paths (run now, placing a hold) import it to write the first marker.
 */

/** A long job as its marker names it: kind and id (the marker's key), the job and the input that resumes it. */
export interface TrackedJob {
  client: string;
  kind: RunningJobKind;
  id: string;
  job: string;
  input: Record<string, unknown>;
  /** Which run this is, where a newer run of the same job supersedes an older one (a legal hold's walk). */
  run?: string;
}

/** How long one invocation of a long job works before handing over (LONG_JOB_BUDGET_SECONDS). */
export function jobBudgetMs(config: Pick<Config, 'LONG_JOB_BUDGET_SECONDS'>): number {
  return config.LONG_JOB_BUDGET_SECONDS * 1000;
}

/** Until when an invocation starting at `now` holds its job: its budget and a margin past which it must have died. */
export function leaseUntil(config: Pick<Config, 'LONG_JOB_BUDGET_SECONDS' | 'LONG_JOB_LEASE_MARGIN_SECONDS'>, now: Date, budgetMs = jobBudgetMs(config)): Date {
  return new Date(now.getTime() + budgetMs + config.LONG_JOB_LEASE_MARGIN_SECONDS * 1000);
}

function markerFields(job: TrackedJob, until: Date): Record<string, unknown> {
  const { pk: _pk, sk: _sk, ...indexed } = keys.runningJob.item(job.client, job.kind, job.id, until);
  return {
    ...indexed,
    client: job.client,
    kind: job.kind,
    id: job.id,
    job: job.job,
    input: job.input,
    ...(job.run === undefined ? {} : { run: job.run }),
    lease_until: until.toISOString(),
  };
}

/** Writes the marker of a job that starts now (a new run: its resumption counts start at nought). */
export function startMarkerOperation(job: TrackedJob, until: Date, now: Date): TransactOperation {
  return {
    kind: 'update',
    key: keys.runningJob.key(job.client, job.kind, job.id),
    update: { set: { ...markerFields(job, until), started_at: now.toISOString(), resumptions: 0, stalled: 0 }, remove: ['progress', 'resumed_at'] },
  };
}

/**
 * Renews the marker's lease (and the input a resumption would use); the counts of resumptions are kept. With `run`,
 * only that run's marker (or none yet): a superseded run's invocation must not take over a newer run's marker.
 */
export function renewMarkerOperation(job: TrackedJob, until: Date): TransactOperation {
  return {
    kind: 'update',
    key: keys.runningJob.key(job.client, job.kind, job.id),
    update: { set: markerFields(job, until) },
    ...(job.run === undefined ? {} : { condition: sameRun(job.run) }),
  };
}

/** Removes the marker as the job ends; with `run`, only that run's marker (a newer run keeps its own). */
export function endMarkerOperation(client: string, kind: RunningJobKind, id: string, run?: string): TransactOperation {
  return { kind: 'delete', key: keys.runningJob.key(client, kind, id), ...(run === undefined ? {} : { condition: sameRun(run) }) };
}

const sameRun = (run: string): WriteCondition => ({
  kind: 'expression',
  expression: 'attribute_not_exists(#run) OR #run = :run',
  names: { '#run': 'run' },
  values: { ':run': run },
});

type MarkerDependencies = Pick<Dependencies, 'table' | 'clock' | 'config'>;

/**
 * Starts a long job: its marker first, then the job. If the start is refused or lost, the marker's lease runs out and
 * the job-sweep starts it; a caller that gives up on the job instead (a run now answering 503) ends it, marker included.
 */
export async function startTrackedJob(deps: MarkerDependencies & Pick<Dependencies, 'jobs'>, job: TrackedJob): Promise<void> {
  const now = deps.clock.now();
  await writeMarker(deps, startMarkerOperation(job, leaseUntil(deps.config, now), now));
  await deps.jobs.start(job.job, job.input);
}

/**
 * Renews the marker at the start of an invocation, or as it hands over (with the input the next one gets). False when
 * a newer run of the job owns the marker (this run has been superseded).
 */
export async function renewTrackedJob(deps: MarkerDependencies, job: TrackedJob, budgetMs?: number): Promise<boolean> {
  try {
    await writeMarker(deps, renewMarkerOperation(job, leaseUntil(deps.config, deps.clock.now(), budgetMs)));
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * Removes the marker of a job that ended outside a transaction of its own (a walk done, a sync through); with `run`,
 * only while that run still owns it.
 */
export async function endTrackedJob(deps: Pick<Dependencies, 'table'>, { client, kind, id, run }: Pick<TrackedJob, 'client' | 'kind' | 'id' | 'run'>): Promise<void> {
  try {
    await writeMarker(deps, endMarkerOperation(client, kind, id, run));
  } catch (error) {
    // Another run owns the marker now: it is that run's to remove.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

async function writeMarker(deps: Pick<Dependencies, 'table'>, operation: TransactOperation): Promise<void> {
  if (operation.kind === 'update') await deps.table.update(operation.key, operation.update, operation.condition === undefined ? {} : { condition: operation.condition });
  else if (operation.kind === 'delete') await deps.table.delete(operation.key, operation.condition === undefined ? {} : { condition: operation.condition });
}
