/**
 * The supervision area's public module: what other areas use of it, and the only module of lambdas/supervision they
 * may import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { recordHits } from './items/record-hits.ts';
export { SUPERVISION_DEADLINES_JOB, supervisionDeadlinesJob } from './deadlines/overdue-alerts.ts';
