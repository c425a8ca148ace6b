/**
 * The cases area's public module: what other areas use of it, and the only module of lambdas/cases they may import
 * (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 *
 * `readCaseForCaller(caller, caseRef)` answers the case (its custodians, counterparty numbers, period and payload
 * types) when the caller's seat sees it, and throws the same 404 as for a missing case otherwise.
 */
export { readCaseForCaller, seatOf, seatSees } from './case-access.ts';
export type { CaseItem } from '#core/store/entities/case.ts';
export { endStuckProduction, PRODUCTION_JOB, productionJob } from './productions/production-job.ts';
