import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { JobEvent, notAJobEvent, runJobIn, type JobsHandler } from '../jobs/public.ts';
import { TRANSFER_JOBS } from './transfer-jobs.ts';

/**
 * The transfer jobs function over a dependency provider (tests pass their own). EventBridge Scheduler (a transfer
 * configuration's schedule) and the JobRunner port (run now, re-run, a transfer handing itself over) invoke it with
 * `{ job, input }`, read and dispatched exactly as the jobs function does (lambdas/jobs/job-dispatch.ts). A job it does
 * not run, or an event that is not a job, is refused by throwing, so the invocation shows as failed.
 */
export function createTransferJobsHandler(dependencies: () => Dependencies): JobsHandler {
  return async (event) => {
    const job = JobEvent.safeParse(event);
    if (!job.success) throw notAJobEvent(job.error);
    return runJobIn(TRANSFER_JOBS, dependencies(), job.data.job, job.data.input);
  };
}

/** Lambda entry of the transfer jobs function (the CDK jobs stack's `lambdas/transfer-jobs/handler.ts`). */
export const handler: JobsHandler = createTransferJobsHandler(
  // The job reads payload objects, unseals DEKs and the configuration's secrets, and hands itself over to a fresh run.
  dependenciesWith(blobStoreAdapter, keyServiceAdapter, jobRunnerAdapter),
);
