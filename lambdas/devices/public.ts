/**
 * The devices area's public module: what other areas use of it, and the only module of lambdas/devices they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { deactivateInactiveDevices } from './deactivation.ts';
export { visibleDevice } from './device-service.ts';
export { contribution, groupStatsChanges } from './device-users/device-user-changes.ts';
export { visibleDeviceUser } from './device-users/device-users.ts';
