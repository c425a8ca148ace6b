import { listLatestTelemetry, listTelemetryHistory } from '../device-data/public.ts';
import { visibleDevice } from './device-service.ts';
import { implementForTenant, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';

const deviceTelemetry = endpointOf(deviceEndpoints, 'admin.devices.telemetry');
const telemetryList = endpointOf(deviceEndpoints, 'admin.telemetry.list');

/**
 * Telemetry reads (lambdas/device-data/reads.ts): one device's reports newest first (a device outside the caller's
 * group scope answers as a missing one, 404), the fleet's latest (the devices in scope).
 */
export const telemetryRoutes: Routes = {
  [deviceTelemetry.id]: implementForTenant(deviceTelemetry, async ({ caller, params, query }) => {
    await visibleDevice(caller, params.device_reference);
    return listTelemetryHistory(caller, params.device_reference, query);
  }),
  [telemetryList.id]: implementForTenant(telemetryList, (input) => listLatestTelemetry(input.caller, input.query)),
};
