import { PLATFORM_SCHEDULES } from '../../lib/config/job-schedules.ts';
import { createLocalScheduler, type LocalScheduler } from '#core/adapters/local/local-scheduler.ts';
import { getDependencies } from '#core/composition.ts';
import { createLogger, type LogLevel } from '#core/logger.ts';
import type { ScheduleDefinition } from '#core/ports/scheduler.ts';
import { createJobsHandler } from '../../lambdas/jobs/handler.ts';

export interface LocalJobs {
  scheduler: LocalScheduler;
  /** Stops every schedule (stack shutdown). */
  stop(): void;
}

/**
 * The local stand-in for the jobs stack: the same platform schedules the CDK deploys (lib/config/job-schedules.ts),
 * run by the in-process scheduler, each firing the same jobs handler with the schedule's `{ job, input }`.
 * Call after the stack has set the environment: the handler builds its dependencies from it on first run.
 */
export async function startLocalJobs(
  options: { logLevel?: LogLevel; schedules?: readonly ScheduleDefinition[] } = {},
): Promise<LocalJobs> {
  const handler = createJobsHandler(getDependencies);
  const scheduler = createLocalScheduler({
    logger: createLogger({ level: options.logLevel ?? 'info' }),
    run: async (job, input) => {
      await handler({ job, input });
    },
  });
  for (const schedule of options.schedules ?? PLATFORM_SCHEDULES) await scheduler.upsertSchedule(schedule);
  return { scheduler, stop: () => scheduler.stopAll() };
}
