import { listLatestTelemetry, listTelemetryHistory } from '../device-data/reads.ts';
import { groupScope } from '#core/auth/access/group-scope.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';

// The contract's order types each route; the ids are checked at load so a reordering fails loudly.
const [deviceTelemetry, telemetryList] = [deviceEndpoints[7], deviceEndpoints[9]];
if (deviceTelemetry.id !== 'admin.devices.telemetry') throw new Error(`devices telemetry routes expected admin.devices.telemetry, found ${deviceTelemetry.id}`);
if (telemetryList.id !== 'admin.telemetry.list') throw new Error(`devices telemetry routes expected admin.telemetry.list, found ${telemetryList.id}`);

function clientOf(client: string | undefined): string {
  if (client === undefined) throw new Error('devices routes need the path client');
  return client;
}

/** Telemetry reads (lambdas/device-data/reads.ts): one device's reports newest first, the fleet's latest. */
export const telemetryRoutes: Routes = {
  [deviceTelemetry.id]: implement(deviceTelemetry, (input, deps) =>
    listTelemetryHistory(deps, clientOf(input.client), input.params.device_reference, input.query, groupScope(deps, clientOf(input.client), input.access, deviceTelemetry.action)),
  ),
  [telemetryList.id]: implement(telemetryList, (input, deps) =>
    listLatestTelemetry(deps, clientOf(input.client), input.query, groupScope(deps, clientOf(input.client), input.access, telemetryList.action)),
  ),
};
