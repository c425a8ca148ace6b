import { PLATFORM_SCHEDULES } from '../../lib/config/job-schedules.ts';
import { createLocalScheduler, followScheduleFile, localScheduleFile, type LocalScheduler } from '#core/adapters/local/local-scheduler.ts';
import { getDependencies } from '#core/composition.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createLogger, type LogLevel } from '#core/logger.ts';
import type { ScheduleDefinition } from '#core/ports/scheduler.ts';
import { createJobsHandler, type JobsHandler } from '../../lambdas/jobs/handler.ts';
import { joinJobTables, type JobTable } from '../../lambdas/jobs/job-dispatch.ts';
import { JOBS } from '../../lambdas/jobs/jobs.ts';
import { JOB_SWEEP } from '../../lambdas/jobs/job-sweep.ts';
import { TRANSFER_JOBS } from '../../lambdas/transfer-jobs/transfer-jobs.ts';

/**
 * Every job of both job functions, the jobs function's (lambdas/jobs/jobs.ts) and the transfer jobs function's
 * (lambdas/transfer-jobs/transfer-jobs.ts): one process stands in for both locally, so one dispatch knows them all.
 * Only the local stack joins them; each Lambda bundle holds its own table.
 */
export const LOCAL_JOBS: JobTable = joinJobTables(JOBS, TRANSFER_JOBS);

/**
 * The local stack's jobs handler: the jobs function's handler (job events, upload and scan events, stream batches)
 * over every job of both functions. The JobRunner, the schedules and `npm run job` all run jobs through it.
 */
export function createLocalJobsHandler(dependencies: () => Dependencies = getDependencies): JobsHandler {
  return createJobsHandler(dependencies, LOCAL_JOBS);
}

export interface LocalJobs {
  scheduler: LocalScheduler;
  /**
   * Runs the job-sweep now (the stack calls it once its jobs handler is registered: a job left stuck by a stack that
   * was killed is resumed at start-up), and again whenever the soonest lease it saw runs out.
   */
  sweepNow(): Promise<void>;
  /** Stops every schedule (stack shutdown). */
  stop(): void;
}

export interface LocalJobsOptions {
  logLevel?: LogLevel;
  /** The platform schedules (default: lib/config/job-schedules.ts, as the jobs stack deploys them). */
  schedules?: readonly ScheduleDefinition[];
  /** The data folder whose schedule file holds the schedules made through the Scheduler port (tenant transfers). */
  dataDir?: string;
  /** What a due schedule invokes with `{ job, input }` (default: the local jobs handler; tests record the events). */
  handler?: (event: { job: string; input: Record<string, unknown> }) => Promise<unknown>;
}

/**
 * The local stand-in for the jobs stack and EventBridge Scheduler: the platform schedules the CDK deploys
 * (lib/config/job-schedules.ts), and the schedules made through the Scheduler port (kept in `<dataDir>/schedules.json`,
 * so they survive a restart), all run by the in-process scheduler, each invoking the local jobs handler with the
 * schedule's `{ job, input }` as EventBridge Scheduler invokes the jobs function (a transfer's, the transfer jobs
 * function). Call after the stack has set the environment:
 * the handler builds its dependencies from it on first run.
 */
export async function startLocalJobs(options: LocalJobsOptions = {}): Promise<LocalJobs> {
  const logger = createLogger({ level: options.logLevel ?? 'info' });
  const handler = options.handler ?? createLocalJobsHandler();
  // Locally nothing else would notice a lease running out between two scheduled sweeps (every 5 minutes), so each
  // sweep's report names the soonest lease it saw and the next sweep runs then: a stuck job is resumed at once.
  let stopped = false;
  let nextSweep: NodeJS.Timeout | undefined;
  const run = async (job: string, input: Record<string, unknown>) => {
    const result = await handler({ job, input });
    if (job === JOB_SWEEP && !stopped) sweepAgainAt(result);
  };
  const sweepAgainAt = (result: unknown) => {
    const due = (result as { next_due?: unknown } | undefined)?.next_due;
    clearTimeout(nextSweep);
    nextSweep = undefined;
    if (typeof due !== 'string' || Number.isNaN(Date.parse(due))) return;
    const sweep = () => void run(JOB_SWEEP, {}).catch((error: unknown) => logger.error('job sweep failed', { error: error instanceof Error ? error.message : String(error) }));
    nextSweep = setTimeout(sweep, Math.max(0, Date.parse(due) - Date.now()) + 1000).unref();
  };
  const scheduler = createLocalScheduler({ logger, run });
  for (const schedule of options.schedules ?? PLATFORM_SCHEDULES) await scheduler.upsertSchedule(schedule);
  const following = options.dataDir === undefined ? undefined : await followScheduleFile(localScheduleFile(options.dataDir), scheduler, logger);
  return {
    scheduler,
    sweepNow: () => run(JOB_SWEEP, {}),
    stop: () => {
      stopped = true;
      clearTimeout(nextSweep);
      following?.stop();
      scheduler.stopAll();
    },
  };
}
