/**
 * The metrics area's public module: what other areas use of it, and the only module of lambdas/metrics they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { listCountries, recordCarrierSeen } from './carriers.ts';
export { COUNTERS_RECOUNT_JOB, countersRecountJob } from './counters-recount.ts';
export { dashboardCounterOperations, deviceCounterChanges, deviceUserCounterChanges, readDashboard, sumCounterItems } from './dashboard-counters.ts';
export { deviceGroupStatsOperations } from './device-group-stats.ts';
export { groupStatsOperation, statsIncrements, type GroupStatsDelta } from './group-stats.ts';
export { listPayloadMetrics } from './list-metrics.ts';
export { payloadMetricBuckets, recordInBucket, recordPayloadMetric, type BucketBatch, type PayloadMetricInput } from './record-payload-metric.ts';
