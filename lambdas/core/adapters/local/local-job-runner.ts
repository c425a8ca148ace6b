import type { Logger } from '../../logger.ts';
import type { JobRunner } from '../../ports/job-runner.ts';

type RunJob = (job: string, input: Record<string, unknown>) => Promise<unknown>;

/**
 * The local stack's jobs handler, registered by the stack once it is up (scripts/local/stack.ts): one dispatch over
 * every job of both job functions (scripts/local/jobs.ts `createLocalJobsHandler`), so a start needs no routing here as
 * it does in AWS (wiring/job-runner.ts). It lives here, in the process, because the API and the jobs share one process
 * locally and core must not import a handler group.
 */
let localRunJob: RunJob | undefined;

/** The local stack hands over its jobs handler (or takes it back with no argument). */
export function setLocalJobHandler(run?: RunJob): void {
  localRunJob = run;
}

/**
 * JobRunner of the local stack: runs the job in this process on the next turn of the event loop, as Lambda's
 * asynchronous invoke would run it elsewhere. Without a registered handler (a bare process, a unit test) the job is
 * only logged: what it would do is left to the retries and the sweep, as when an invoke is lost.
 */
export function createLocalJobRunner(logger: Logger): JobRunner {
  return {
    async start(job, input) {
      const run = localRunJob;
      if (run === undefined) {
        logger.warn('no local jobs handler: job not started', { job });
        return;
      }
      setImmediate(() => {
        run(job, input).catch((error: unknown) => logger.error('job failed', { job, error: error instanceof Error ? error.message : String(error) }));
      });
    },
  };
}
