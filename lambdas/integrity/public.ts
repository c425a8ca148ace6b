/**
 * The integrity area's public module: what other areas use of it, and the only module of lambdas/integrity they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { FIXITY_JOB, fixityJob } from './fixity/fixity-job.ts';
export { latestIntegrityChecks } from './fixity/integrity-reads.ts';
