/**
 * The migrations area's public module: what other areas use of it, and the only module of lambdas/migrations they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { migrationImportJob } from './job/index.ts';
export { endMigration } from './job/outcome.ts';
export { resumeScannedMigrations } from './job/scan-events.ts';
