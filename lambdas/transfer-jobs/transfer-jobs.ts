import type { JobTable } from '../jobs/public.ts';
import { TRANSFER_JOB } from '../transfers/public.ts';
import { transferJob } from '../transfers/public.ts';
import { PRODUCTION_JOB, productionJob } from '../cases/public.ts';

/**
 * Every job the transfer jobs function runs: `transfer` (run now, re-run, a configuration's schedule, a transfer's
 * own hand-over) and `production` (a case's or a search's production, packaged and delivered as a transfer is). Their
 * packaging and delivery (openpgp, ssh2, zip.js: about 0.8 MB) stay out of the jobs function, whose
 * cold start every upload waits on. The JobRunner sends these names here (TRANSFER_FUNCTION_JOBS in
 * lambdas/core/adapters/wiring/job-runner.ts); the handler's test keeps the two lists equal.
 */
export const TRANSFER_JOBS: JobTable = {
  [TRANSFER_JOB]: (dependencies, input) => transferJob(dependencies, input),
  [PRODUCTION_JOB]: (dependencies, input) => productionJob(dependencies, input),
};
