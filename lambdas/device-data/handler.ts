import { listGps, listLogs } from './reads.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';

const logsList = endpointOf(deviceDataEndpoints, 'client.device-logs.list');
const deviceLogs = endpointOf(deviceDataEndpoints, 'client.devices.logs');
const userLogs = endpointOf(deviceDataEndpoints, 'client.users.logs');
const gpsList = endpointOf(deviceDataEndpoints, 'client.gps.list');
const deviceGps = endpointOf(deviceDataEndpoints, 'client.devices.gps');
const userGps = endpointOf(deviceDataEndpoints, 'client.users.gps');

/**
 * Lambda entry of the `device-data` group: device logs and GPS fixes for the client portal and client apps, by
 * tenant, device or device user, newest first, with date ranges and cursors (lambdas/device-data/reads.ts).
 */
export const handler = createApiHandler({
  group: 'device-data',
  endpoints: deviceDataEndpoints,
  routes: {
    [logsList.id]: implementForTenant(logsList, (input, deps) => listLogs(deps, input.client, input.query, input.groupScope())),
    [deviceLogs.id]: implementForTenant(deviceLogs, (input, deps) =>
      listLogs(deps, input.client, { ...input.query, device_reference: input.params.device_reference }, input.groupScope()),
    ),
    [userLogs.id]: implementForTenant(userLogs, (input, deps) =>
      listLogs(deps, input.client, { ...input.query, device_user_reference: input.params.device_user_reference }, input.groupScope()),
    ),
    [gpsList.id]: implementForTenant(gpsList, (input, deps) => listGps(deps, input.client, input.query, input.groupScope())),
    [deviceGps.id]: implementForTenant(deviceGps, (input, deps) =>
      listGps(deps, input.client, { ...input.query, device_reference: input.params.device_reference }, input.groupScope()),
    ),
    [userGps.id]: implementForTenant(userGps, (input, deps) =>
      listGps(deps, input.client, { ...input.query, device_user_reference: input.params.device_user_reference }, input.groupScope()),
    ),
  },
});
