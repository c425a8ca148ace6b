/**
 * The completeness area's public module: what other areas use of it, and the only module of lambdas/completeness they
 * may import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { gapAlertKey } from './alerts/gap-alerts.ts';
export { uploadLedger } from './ledger/intake.ts';
export { reconcileProcessed } from './reconcile/at-processing.ts';
export { COMPLETENESS_SWEEP_JOB, completenessSweepJob } from './jobs/completeness-sweep.ts';
export { custodianLedgerEntries } from './evidence/custodian-ledger.ts';
