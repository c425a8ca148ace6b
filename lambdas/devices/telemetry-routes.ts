import { listLatestTelemetry, listTelemetryHistory } from '../device-data/reads.ts';
import { implementForTenant, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';

const deviceTelemetry = endpointOf(deviceEndpoints, 'admin.devices.telemetry');
const telemetryList = endpointOf(deviceEndpoints, 'admin.telemetry.list');

/** Telemetry reads (lambdas/device-data/reads.ts): one device's reports newest first, the fleet's latest. */
export const telemetryRoutes: Routes = {
  [deviceTelemetry.id]: implementForTenant(deviceTelemetry, (input, deps) =>
    listTelemetryHistory(deps, input.client, input.params.device_reference, input.query, input.groupScope()),
  ),
  [telemetryList.id]: implementForTenant(telemetryList, (input, deps) =>
    listLatestTelemetry(deps, input.client, input.query, input.groupScope()),
  ),
};
