import { deviceOf } from '#core/auth/actor.ts';
import { uploadGps, uploadLogs, uploadTelemetry } from '../device-data/public.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

const logs = endpointOf(deviceApiEndpoints, 'device.logs.upload');
const telemetry = endpointOf(deviceApiEndpoints, 'device.telemetry.upload');
const gps = endpointOf(deviceApiEndpoints, 'device.gps.upload');

/** Device uploads: logs, sealed telemetry and sealed GPS fixes (lambdas/device-data). */
export const deviceDataRoutes: Routes = {
  [logs.id]: implement(logs, (input, deps) => uploadLogs(deps, deviceOf(input.principal), input.body)),
  [telemetry.id]: implement(telemetry, (input, deps) => uploadTelemetry(deps, deviceOf(input.principal), input.body)),
  [gps.id]: implement(gps, (input, deps) => uploadGps(deps, deviceOf(input.principal), input.body)),
};
