/**
 * The cases area's public module: what other areas use of it, and the only module of lambdas/cases they may import
 * (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { endStuckProduction, productionJob } from './productions/production-job.ts';
export { PRODUCTION_JOB } from './productions/production-job-name.ts';
