import { listGps, listLogs } from './reads.ts';
import { visibleDevice } from '../devices/device-service.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implementForTenant } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { apiRecorders } from '../api-recorders.ts';

const logsList = endpointOf(deviceDataEndpoints, 'client.device-logs.list');
const deviceLogs = endpointOf(deviceDataEndpoints, 'client.devices.logs');
const userLogs = endpointOf(deviceDataEndpoints, 'client.users.logs');
const gpsList = endpointOf(deviceDataEndpoints, 'client.gps.list');
const deviceGps = endpointOf(deviceDataEndpoints, 'client.devices.gps');
const userGps = endpointOf(deviceDataEndpoints, 'client.users.gps');

/**
 * Lambda entry of the `device-data` group: device logs and GPS fixes for the client portal and client apps, by
 * tenant, device or device user, newest first, with date ranges and cursors (lambdas/device-data/reads.ts). A
 * device's own lists first ask for the device in the caller's group scope: a device of another group answers as a
 * missing one (404). A device user's lists, like the tenant's, show each record by its device's group now.
 */
export const handler = createApiHandler({
  group: 'device-data',
  recorders: apiRecorders,
  endpoints: deviceDataEndpoints,
  routes: {
    [logsList.id]: implementForTenant(logsList, (input, deps) => listLogs(deps, input.client, input.query, input.groupScope())),
    [deviceLogs.id]: implementForTenant(deviceLogs, async (input, deps) => {
      const scope = input.groupScope();
      await visibleDevice(deps, input.client, input.params.device_reference, scope);
      return listLogs(deps, input.client, { ...input.query, device_reference: input.params.device_reference }, scope);
    }),
    [userLogs.id]: implementForTenant(userLogs, (input, deps) =>
      listLogs(deps, input.client, { ...input.query, device_user_reference: input.params.device_user_reference }, input.groupScope()),
    ),
    [gpsList.id]: implementForTenant(gpsList, (input, deps) => listGps(deps, input.client, input.query, input.groupScope())),
    [deviceGps.id]: implementForTenant(deviceGps, async (input, deps) => {
      const scope = input.groupScope();
      await visibleDevice(deps, input.client, input.params.device_reference, scope);
      return listGps(deps, input.client, { ...input.query, device_reference: input.params.device_reference }, scope);
    }),
    [userGps.id]: implementForTenant(userGps, (input, deps) =>
      listGps(deps, input.client, { ...input.query, device_user_reference: input.params.device_user_reference }, input.groupScope()),
    ),
  },
});
