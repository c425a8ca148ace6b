/**
 * The completeness area's public module: what other areas use of it, and the only module of lambdas/completeness they
 * may import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { gapAlertKey, raiseGapAlert, raiseSilentDeviceAlert, silentAlertKey } from './alerts/gap-alerts.ts';
export { completenessSettingsOf, type CompletenessSettings } from './settings/completeness-settings.ts';
export { uploadLedger, type LedgerDependencies } from './ledger/intake.ts';
export { reconcileProcessed, type ReconcileDependencies, type ReconcileOutcome } from './reconcile/at-processing.ts';
export { COMPLETENESS_SWEEP_JOB, completenessSweepJob } from './jobs/completeness-sweep.ts';
