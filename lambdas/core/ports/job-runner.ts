/**
 * Starts one job of the jobs function now, without waiting for it: Lambda's asynchronous invoke in AWS (retried by
 * Lambda on failure), the local stack's in-process jobs handler locally. The job receives `{ job, input }`, the same
 * event a schedule sends, so it runs through the same dispatch (lambdas/jobs/jobs.ts).
 */
export interface JobRunner {
  /** Resolves once the job is accepted (not when it is done). */
  start(job: string, input: Record<string, unknown>): Promise<void>;
}
