/**
 * The support-access area's public module: what other areas use of it, and the only module of lambdas/support-access they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { FINAL_STATES } from './state-machine.ts';
export { expireDueRequests } from './support-access-service.ts';
