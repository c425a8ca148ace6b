/**
 * The account-data area's public module: what other areas use of it, and the only module of lambdas/account-data they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { requestHoldRelease } from './approvals/four-eyes.ts';
export { ERASURE_DECISION_JOB, ERASURE_RUN_JOB, erasureDecisionJob, erasureRunJob } from './erasure/erasure-jobs.ts';
export { endStuckErasure, erasureStanding } from './erasure/erasure-stuck.ts';
export { isRecordingHeld, readHold, type HoldTarget } from './legal-holds/coverage.ts';
export { placeHoldForCase, releaseHoldForCase } from './legal-holds/case-holds.ts';
export { legalHoldSyncJob, markSyncFailed } from './legal-holds/hold-sync.ts';
export { objectRetentionSyncJob } from './object-lock/object-retention-sync.ts';
export { objectRetentionFor } from './object-lock/object-retention.ts';
export { dueMarkerItems, dueMarkerPuts, dueMarkerSync, payloadDueMarkerItems } from './retention/due-index.ts';
export { RETENTION_JOB, retentionJob } from './retention/retention-job.ts';
export { getRetentionPolicy } from './retention/retention-policy.ts';
