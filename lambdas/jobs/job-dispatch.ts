import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { reportCapacity } from '#core/capacity-report.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';

/**
 * How a job function reads and dispatches `{ job, input }`, shared by the jobs function (./handler.ts) and the transfer
 * jobs function (lambdas/transfer-jobs/handler.ts). It imports no job: each function bundles only its own table.
 */

/** What a schedule or a JobRunner start sends (lib/config/job-schedules.ts `target`): the job's name and its input. */
export const JobEvent = z.object({
  job: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown()).default({}),
});
export type JobEvent = z.infer<typeof JobEvent>;

/** A job: does its work with the given dependencies and reports what it did (logged, and returned to the invoker). */
export type Job = (dependencies: Dependencies, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The jobs one function runs, by the name a schedule's target or a JobRunner start carries. */
export type JobTable = Readonly<Record<string, Job>>;

export type JobsHandler = (event: unknown) => Promise<Record<string, unknown>>;

/** Runs one job of `jobs` by name. An unknown name is a configuration fault, so it throws rather than doing nothing. */
export async function runJobIn(jobs: JobTable, dependencies: Dependencies, name: string, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  // Own properties only: a name like `constructor` must not find Object.prototype's.
  if (!Object.hasOwn(jobs, name)) throw new Error(`Unknown job ${JSON.stringify(name.slice(0, 64))}`);
  const job = jobs[name] as Job;
  // One capacity meter per invocation: what the job consumed of the table is reported even when it fails.
  const { result } = await measureCapacity(async (meter) => {
    try {
      return await job(dependencies, input);
    } finally {
      reportCapacity(dependencies, { job: name }, meter.totals());
    }
  });
  dependencies.logger.info('job done', { job: name, ...result });
  return result;
}

/** The refusal of an event that is not `{ job, input }`, one `path: message` per problem. */
export function notAJobEvent(error: z.ZodError): Error {
  const problems = error.issues.map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`);
  return new Error(`Not a job event: ${problems.join('; ')}`);
}

/** Two functions' tables as one (the local stack runs both in one process); a name in both is a wiring fault. */
export function joinJobTables(...tables: JobTable[]): JobTable {
  const joined: Record<string, Job> = {};
  for (const table of tables) {
    for (const [name, job] of Object.entries(table)) {
      if (Object.hasOwn(joined, name)) throw new Error(`Job ${JSON.stringify(name)} is in two job tables`);
      joined[name] = job;
    }
  }
  return joined;
}
