/**
 * The transfers area's public module: what other areas use of it, and the only module of lambdas/transfers they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { TRANSFER_JOB } from './configs/schedules.ts';
export { transferJob } from './job/transfer-job.ts';
export { endStuckTransfer } from './runs/end-stuck.ts';
