import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
import { holdsOfDevice, holdsOfDeviceUser, oneWithHeldBy, pageWithHeldBy } from '#core/store/held-by.ts';
import { telemetryRoutes } from './telemetry-routes.ts';
import { listCommands, listDeviceCommands, sendCommand } from '../commands/public.ts';
import { getDashboard } from './dashboard/dashboard.ts';
import { listPayloadMetrics } from '../metrics/public.ts';
import { getDeviceUser, listDeviceUserDevices, listDeviceUsers, offboardDeviceUser, onboardDeviceUser, updateDeviceUser } from './device-users/device-users.ts';
import { deactivateDevice, getDevice, listDeviceHistory, listDevices } from './device-service.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id (telemetry's two: ./telemetry-routes.ts). */
const dashboardGet = endpointOf(deviceEndpoints, 'admin.dashboard.get');
const metricsGet = endpointOf(deviceEndpoints, 'admin.metrics.get');
const devicesList = endpointOf(deviceEndpoints, 'admin.devices.list');
const devicesGet = endpointOf(deviceEndpoints, 'admin.devices.get');
const devicesDeactivate = endpointOf(deviceEndpoints, 'admin.devices.deactivate');
const devicesHistory = endpointOf(deviceEndpoints, 'admin.devices.history');
const deviceCommandsList = endpointOf(deviceEndpoints, 'admin.devices.commands.list');
const deviceCommandsSend = endpointOf(deviceEndpoints, 'admin.devices.commands.send');
const commandsList = endpointOf(deviceEndpoints, 'admin.commands.list');
const usersList = endpointOf(deviceEndpoints, 'admin.users.list');
const usersGet = endpointOf(deviceEndpoints, 'admin.users.get');
const usersCreate = endpointOf(deviceEndpoints, 'admin.users.create');
const usersUpdate = endpointOf(deviceEndpoints, 'admin.users.update');
const usersDelete = endpointOf(deviceEndpoints, 'admin.users.delete');
const usersDevices = endpointOf(deviceEndpoints, 'admin.users.devices');

/**
 * Lambda entry of the `devices` group: device users, devices (admin side) and the dashboard. Device users and devices
 * name the active legal holds they fall under (`held_by`, #core/store/held-by.ts: one read of the tenant's holds).
 */
export const handler = createApiHandler({
  group: 'devices',
  recorders: apiRecorders,
  endpoints: deviceEndpoints,
  routes: {
    ...telemetryRoutes,
    [dashboardGet.id]: implementForTenant(dashboardGet, ({ caller }) => getDashboard(caller)),
    [metricsGet.id]: implementForTenant(metricsGet, (input) => listPayloadMetrics(input.caller, input.params.scope, input.query)),

    [devicesList.id]: implementForTenant(devicesList, async ({ caller, query }) =>
      pageWithHeldBy(caller.deps, caller.tenant, await listDevices(caller, query), holdsOfDevice),
    ),
    [devicesGet.id]: implementForTenant(devicesGet, async ({ caller, params }) =>
      oneWithHeldBy(caller.deps, caller.tenant, await getDevice(caller, params.device_reference), holdsOfDevice),
    ),
    [devicesDeactivate.id]: implementForTenant(devicesDeactivate, ({ caller, params }) => deactivateDevice(caller, params.device_reference)),
    [deviceCommandsList.id]: implementForTenant(deviceCommandsList, (input) => listDeviceCommands(input.caller, input.params.device_reference, input.query)),
    [deviceCommandsSend.id]: implementForTenant(deviceCommandsSend, async (input) => {
      const command = await sendCommand(input.caller, input.params.device_reference, input.body);
      return reply(command, { status: 201 });
    }),
    [commandsList.id]: implementForTenant(commandsList, (input) => listCommands(input.caller, input.query)),
    [devicesHistory.id]: implementForTenant(devicesHistory, async ({ caller, params, query }) => {
      const page = await listDeviceHistory(caller, params.device_reference, { ...query, result_type: 'page' });
      if (!('data' in page)) throw new Error('history lists a page');
      return page;
    }),

    [usersList.id]: implementForTenant(usersList, async ({ caller, query }) =>
      pageWithHeldBy(caller.deps, caller.tenant, await listDeviceUsers(caller, query), holdsOfDeviceUser),
    ),
    [usersGet.id]: implementForTenant(usersGet, async ({ caller, params }) =>
      oneWithHeldBy(caller.deps, caller.tenant, await getDeviceUser(caller, params.device_user_reference), holdsOfDeviceUser),
    ),
    [usersCreate.id]: implementForTenant(usersCreate, async ({ caller, params, body }) => {
      const { user, created } = await onboardDeviceUser(caller, params.device_user_reference, body);
      return reply(user, { status: created ? 201 : 200 });
    }),
    [usersUpdate.id]: implementForTenant(usersUpdate, ({ caller, params, body }) => updateDeviceUser(caller, params.device_user_reference, body)),
    [usersDelete.id]: implementForTenant(usersDelete, async ({ caller, params }) => {
      await offboardDeviceUser(caller, params.device_user_reference);
      return { ok: true as const };
    }),
    [usersDevices.id]: implementForTenant(usersDevices, async ({ caller, params, query }) =>
      pageWithHeldBy(caller.deps, caller.tenant, await listDeviceUserDevices(caller, params.device_user_reference, query), holdsOfDevice),
    ),
  },
});
