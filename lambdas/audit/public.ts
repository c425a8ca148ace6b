/**
 * The audit area's public module: what other areas use of it, and the only module of lambdas/audit they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { entryHash } from './trail/activity-chain.ts';
export { writeActivityRecordWith } from './trail/activity-log.ts';
export { writeCheckpoint } from './trail/checkpoint.ts';
export { destroyedRecordStub } from './trail/disposed-records.ts';
export { linkPending } from './trail/sequencer.ts';
export { auditSigningKeyId } from './trail/signing-key.ts';
export { verifyChain } from './trail/verify-chain.ts';
export { versionWrites, type VersionWriter } from './versions/versioned-write.ts';
export { activityExportJob, activityExportStanding, ACTIVITY_EXPORT_JOB, endStuckActivityExport } from './export/export-service.ts';
