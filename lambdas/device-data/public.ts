/**
 * The device-data area's public module: what other areas use of it, and the only module of lambdas/device-data they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { listDeviceActivities, listLatestTelemetry, listLatestTelemetryAcrossClients, listTelemetryHistory } from './reads.ts';
export { deviceFields, holderOf, parseSealed, touchLastSeen, uploadGps, uploadLogs, uploadTelemetry, utcOf, type UploadDependencies, type UploadingDevice } from './uploads.ts';
