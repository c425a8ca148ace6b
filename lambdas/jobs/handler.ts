import * as z from 'zod';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { malwareScannerAdapter } from '#core/adapters/wiring/malware-scanner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { resumeScannedMigrations } from '../migrations/public.ts';
import { processBlobEvent } from '../payloads/public.ts';
import { auditStreamTargets, linkTrails } from './audit-sequencer.ts';
import { JobEvent, notAJobEvent, runJobIn, type JobsHandler, type JobTable } from './job-dispatch.ts';
import { JOBS } from './jobs.ts';

export type { JobsHandler } from './job-dispatch.ts';

/** An EventBridge event (S3 `Object Created` on the raw bucket): routed here by the jobs stack's rule. */
const BusEvent = z.looseObject({ source: z.string(), 'detail-type': z.string() });

/**
 * The jobs function over a dependency provider (tests and the local scheduler pass their own). EventBridge Scheduler
 * invokes it with `{ job, input }` and it dispatches to the job of that name (jobs.ts). Upload events from the raw
 * bucket (S3 Object Created) also arrive here and run the payload processing (lambdas/payloads/processing); an object
 * whose registration has not arrived yet throws, so Lambda retries the event. A DynamoDB Streams batch of new
 * activity records links those tenants' audit trails (./audit-sequencer.ts). Anything else is refused by throwing,
 * so the invocation shows as failed.
 *
 * `jobs` is this function's table (./jobs.ts); the local stack passes every job of both job functions
 * (scripts/local/jobs.ts), as one process stands in for both there.
 */
export function createJobsHandler(dependencies: () => Dependencies, jobs: JobTable = JOBS): JobsHandler {
  return async (event) => {
    const deps = dependencies();
    const job = JobEvent.safeParse(event);
    if (job.success) return runJobIn(jobs, deps, job.data.job, job.data.input);
    // New activity records from the table's stream: link those tenants' trails now (a failure makes Lambda retry).
    const streamClients = auditStreamTargets(event);
    if (streamClients !== undefined) {
      let linked = 0;
      for (const client of streamClients) linked += await linkTrails(deps, client);
      return { audit_linked: linked, clients: streamClients.length };
    }
    // A scanned legacy export goes on importing (its scan result arrives as a payload's does); before processing,
    // whose retry-me throw would otherwise leave it waiting.
    const migrationsResumed = await resumeScannedMigrations(deps, event);
    const processed = await processBlobEvent(deps, event);
    if (processed !== undefined) return { processed, ...(migrationsResumed ? { migrations_resumed: migrationsResumed } : {}) };
    const bus = BusEvent.safeParse(event);
    if (bus.success) {
      deps.logger.warn('event not handled yet', { source: bus.data.source, detail_type: bus.data['detail-type'] });
      return { skipped: true };
    }
    throw notAJobEvent(job.error);
  };
}

/** Lambda entry of the jobs function (the CDK jobs stack's `lambdas/jobs/handler.ts`). */
export const handler: JobsHandler = createJobsHandler(
  // Processing reads and writes payload objects, scans them, seals them with the tenant's key and starts follow-up jobs.
  dependenciesWith(blobStoreAdapter, keyServiceAdapter, malwareScannerAdapter, jobRunnerAdapter),
);
