/**
 * The access area's public module: what other areas use of it, and the only module of lambdas/access they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { resolveGroupTags } from './groups/group-tags.ts';
export { assertAssignedWithinOwn } from './roles/grant-guard.ts';
