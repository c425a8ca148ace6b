/**
 * The supervision area's public module: what other areas use of it, and the only module of lambdas/supervision they
 * may import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { superviseProcessed } from './evaluation/at-processing.ts';
export { recordHits } from './items/record-hits.ts';
export { SUPERVISION_DEADLINES_JOB, supervisionDeadlinesJob } from './deadlines/overdue-alerts.ts';
export { applyStanding, endStuckApply, SUPERVISION_APPLY_JOB, supervisionApplyJob } from './jobs/apply-job.ts';
export { SUPERVISION_DAILY_JOB, supervisionDailyJob } from './jobs/daily-job.ts';
