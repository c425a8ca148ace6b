import type { Dependencies } from '#core/dependencies.ts';
import { runJobIn, type JobTable } from './job-dispatch.ts';
import { retentionJob, RETENTION_JOB } from '../account-data/public.ts';
import { deactivateInactiveDevices } from '../devices/public.ts';
import { legalHoldSyncJob } from '../account-data/public.ts';
import { objectRetentionSyncJob } from '../account-data/public.ts';
import { expireDueRequests } from '../support-access/public.ts';
import { alertsExpiryJob } from './alerts-expiry.ts';
import { auditSequencerJob } from './audit-sequencer.ts';
import { payloadProcessingJob } from './payload-processing.ts';
import { payloadSweepJob } from './payload-sweep.ts';
import { JOB_SWEEP, sweepStuckJobs } from './job-sweep.ts';
import { migrationImportJob } from '../migrations/public.ts';
import { countersRecountJob, COUNTERS_RECOUNT_JOB } from '../metrics/public.ts';
import { processedIndexBackfillJob, PROCESSED_INDEX_BACKFILL_JOB } from './processed-index-backfill.ts';
import { telemetryIndexBackfillJob, TELEMETRY_INDEX_BACKFILL_JOB } from './telemetry-index-backfill.ts';
import { SUPERVISION_DEADLINES_JOB, supervisionDeadlinesJob } from '../supervision/public.ts';
import { SUPERVISION_APPLY_JOB, SUPERVISION_DAILY_JOB, supervisionApplyJob, supervisionDailyJob } from '../supervision/public.ts';
import { COMPLETENESS_SWEEP_JOB, completenessSweepJob } from '../completeness/public.ts';
import { FIXITY_JOB, fixityJob } from '../integrity/public.ts';
import { ACTIVITY_EXPORT_JOB, activityExportJob } from '../audit/public.ts';
import { ERASURE_DECISION_JOB, ERASURE_RUN_JOB, erasureDecisionJob, erasureRunJob } from '../account-data/public.ts';

/**
 * Every job the jobs function runs, by the name a schedule's target carries (`{ job, input }`). The scheduled ones are
 * those of lib/config/job-schedules.ts (the CDK jobs stack and the local scheduler both read that list);
 * `payload-processing` is started on demand through the JobRunner port. The `transfer` job is not here: it runs in a
 * function of its own (lambdas/transfer-jobs), so this function does not bundle transfer packaging and delivery
 * (openpgp, ssh2, zip.js).
 */
export const JOBS: JobTable = {
  'support-access-expiry': async (dependencies) => ({ ...(await expireDueRequests(dependencies)) }),
  'device-deactivation': async (dependencies) => ({ ...(await deactivateInactiveDevices(dependencies, dependencies.config.DEVICE_INACTIVITY_DAYS)) }),
  'alerts-expiry': alertsExpiryJob,
  'payload-sweep': payloadSweepJob,
  // Resumes long jobs whose invocation died, and ends those that cannot make progress (./job-sweep.ts).
  [JOB_SWEEP]: async (dependencies, input) => ({ ...(await sweepStuckJobs(dependencies, input)) }),
  'payload-processing': payloadProcessingJob,
  'audit-sequencer': auditSequencerJob,
  // Daily; starts itself again to go on after its time budget.
  [RETENTION_JOB]: retentionJob,
  // Started by placing or releasing a large legal hold, and by itself to go on after its time budget.
  'legal-hold-sync': async (dependencies, input) => legalHoldSyncJob(dependencies, input),
  // Started when a retention period grows (PUT account/retention), and by itself to go on after its time budget.
  'object-retention-sync': async (dependencies, input) => objectRetentionSyncJob(dependencies, input),
  // Started by `POST migrations/{migration_reference}/start`, and by itself to go on after its time budget.
  'migration-import': migrationImportJob,
  // On demand (`npm run job -- counters-recount [--client <c>] [--input '{"dry_run":true}']`): repairs the device and
  // device-user counters (dashboard, group stats, licence use) from the items they count.
  [COUNTERS_RECOUNT_JOB]: async (dependencies, input) => countersRecountJob(dependencies, input),
  // On demand, once after the deploy that adds the byProcessedAt index (docs/deploying.md), and by itself to go on after
  // its time budget: gives older Processed payloads their keys, so transfers read only their window.
  [PROCESSED_INDEX_BACKFILL_JOB]: async (dependencies, input) => processedIndexBackfillJob(dependencies, input),
  // On demand, once after the deploy that puts the latest telemetry reports on an index, and by itself to go on: puts
  // older reports on it, so GET telemetry reads the devices that reported, not the whole fleet.
  [TELEMETRY_INDEX_BACKFILL_JOB]: async (dependencies, input) => telemetryIndexBackfillJob(dependencies, input),
  // Hourly: one Scoped alert per supervision policy with review items past their deadline, naming how many.
  [SUPERVISION_DEADLINES_JOB]: async (dependencies) => ({ ...(await supervisionDeadlinesJob(dependencies)) }),
  // Daily: tops each supervised person up to a sampling policy's minimum for yesterday; starts itself again to go on.
  [SUPERVISION_DAILY_JOB]: async (dependencies, input) => supervisionDailyJob(dependencies, input),
  // Started by `POST supervision/policies/{policy_reference}/apply`, and by itself to go on after its time budget.
  [SUPERVISION_APPLY_JOB]: async (dependencies, input) => supervisionApplyJob(dependencies, input),
  // Hourly: Pending entries past their grace go Missing (with their gap alerts), recordings no ledger entry explains go
  // Unexpected, silent devices raise their alert; starts itself again to go on after its time budget.
  [COMPLETENESS_SWEEP_JOB]: async (dependencies, input) => completenessSweepJob(dependencies, input),
  // Daily: every stored recording's object checked for presence and version, a share read in full against the device's
  // SHA-256 (the whole store once per cycle); failures raise sec alerts; each run kept as an IntegrityCheck.
  [FIXITY_JOB]: async (dependencies, input) => fixityJob(dependencies, input),
  // Started by `POST activities/exports`: writes the trail's period as one signed file (lambdas/audit/export).
  [ACTIVITY_EXPORT_JOB]: async (dependencies, input) => activityExportJob(dependencies, input),
  // Started by recording an erasure request (GDPR Art 17), and by itself to go on after its time budget: judges every
  // record about the person (docs/erasure.md).
  [ERASURE_DECISION_JOB]: async (dependencies, input) => erasureDecisionJob(dependencies, input),
  // Started by a second person's approval of an erasure request, and by itself to go on: erases what no exception keeps.
  [ERASURE_RUN_JOB]: async (dependencies, input) => erasureRunJob(dependencies, input),
};

/** Runs one job of this function by name. An unknown name is a configuration fault, so it throws rather than doing nothing. */
export async function runJob(dependencies: Dependencies, name: string, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return runJobIn(JOBS, dependencies, name, input);
}
