import type { DevicePrincipal } from '#core/auth/principal.ts';
import { uploadGps, uploadLogs, uploadTelemetry } from '../device-data/uploads.ts';
import { UnauthorizedError } from '#core/errors.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

// The contract's order types each route; the ids are checked at load so a reordering fails loudly.
const [logs, telemetry, gps] = [deviceApiEndpoints[4], deviceApiEndpoints[5], deviceApiEndpoints[6]];
for (const [endpoint, id] of [
  [logs, 'device.logs.upload'],
  [telemetry, 'device.telemetry.upload'],
  [gps, 'device.gps.upload'],
] as const) {
  if (endpoint.id !== id) throw new Error(`device-api data routes expected ${id}, found ${endpoint.id}`);
}

/** The verified device (the pipeline authenticated it; this narrows the type). Tenant and device come from it only. */
function deviceOf(principal: unknown): DevicePrincipal {
  const device = principal as DevicePrincipal | undefined;
  if (device?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return device;
}

/** Device uploads: logs, sealed telemetry and sealed GPS fixes (lambdas/device-data). */
export const deviceDataRoutes: Routes = {
  [logs.id]: implement(logs, (input, deps) => uploadLogs(deps, deviceOf(input.principal), input.body)),
  [telemetry.id]: implement(telemetry, (input, deps) => uploadTelemetry(deps, deviceOf(input.principal), input.body)),
  [gps.id]: implement(gps, (input, deps) => uploadGps(deps, deviceOf(input.principal), input.body)),
};
