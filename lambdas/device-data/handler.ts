import { listGps, listLogs } from './reads.ts';
import { visibleDevice } from '../devices/public.ts';
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
    [logsList.id]: implementForTenant(logsList, ({ caller, query }) => listLogs(caller, query)),
    [deviceLogs.id]: implementForTenant(deviceLogs, async ({ caller, query, params }) => {
      await visibleDevice(caller, params.device_reference);
      return listLogs(caller, { ...query, device_reference: params.device_reference });
    }),
    [userLogs.id]: implementForTenant(userLogs, ({ caller, query, params }) => listLogs(caller, { ...query, device_user_reference: params.device_user_reference })),
    [gpsList.id]: implementForTenant(gpsList, ({ caller, query }) => listGps(caller, query)),
    [deviceGps.id]: implementForTenant(deviceGps, async ({ caller, query, params }) => {
      await visibleDevice(caller, params.device_reference);
      return listGps(caller, { ...query, device_reference: params.device_reference });
    }),
    [userGps.id]: implementForTenant(userGps, ({ caller, query, params }) => listGps(caller, { ...query, device_user_reference: params.device_user_reference })),
  },
});
