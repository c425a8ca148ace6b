/**
 * The jobs area's public module: what other areas use of it, and the only module of lambdas/jobs they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
// Not the jobs table (jobs.ts): it imports every area's jobs, so an area reaching it through here would import itself.
export { runJobIn } from './job-dispatch.ts';
export { JobEvent, notAJobEvent, type JobTable, type JobsHandler } from './job-dispatch.ts';
export { endMarkerOperation, endTrackedJob, jobBudgetMs, leaseUntil, renewMarkerOperation, renewTrackedJob, startMarkerOperation, startTrackedJob, type TrackedJob } from './running-jobs.ts';
