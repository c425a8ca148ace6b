/**
 * Starts one job now, without waiting for it: Lambda's asynchronous invoke in AWS (retried by Lambda on failure) of the
 * function that runs it (the transfer jobs function for `transfer`, the jobs function for the others), the local
 * stack's in-process jobs handler locally. The job receives `{ job, input }`, the same event a schedule sends, so it
 * runs through the same dispatch (lambdas/jobs/job-dispatch.ts).
 */
export interface JobRunner {
  /** Resolves once the job is accepted (not when it is done). */
  start(job: string, input: Record<string, unknown>): Promise<void>;
}
