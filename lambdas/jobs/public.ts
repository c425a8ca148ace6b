/**
 * The jobs area's public module: what other areas use of it, and the only module of lambdas/jobs they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { runJobIn } from './job-dispatch.ts';
