/**
 * The transfers area's public module: what other areas use of it, and the only module of lambdas/transfers they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { TRANSFER_JOB } from './configs/schedules.ts';
export { transferJob } from './job/transfer-job.ts';
export { endStuckTransfer } from './runs/end-stuck.ts';
// What a production (lambdas/cases/productions) reuses: the recording source with its checks, packaging and delivery.
export { openStoredRecording } from './job/recording-source.ts';
export { packageTransfer, parsePgpPublicKey, type PackagedOutput, type PackagingOptions } from './packaging/index.ts';
export { openDestination, DeliveryError, type Destination } from './delivery/index.ts';
export { openSecret } from './configs/secrets.ts';
