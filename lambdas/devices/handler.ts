import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { actorRecordOf } from '#core/auth/actor.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
import { holdsOfDevice, holdsOfDeviceUser, oneWithHeldBy, pageWithHeldBy } from '#core/store/held-by.ts';
import { telemetryRoutes } from './telemetry-routes.ts';
import { listCommands, listDeviceCommands, sendCommand } from '../commands/commands.ts';
import { getDashboard } from './dashboard/dashboard.ts';
import { listPayloadMetrics } from '../metrics/list-metrics.ts';
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
    [dashboardGet.id]: implementForTenant(dashboardGet, (input, deps) => getDashboard(deps, input.client, input.groupScope())),
    [metricsGet.id]: implementForTenant(metricsGet, (input, deps) => listPayloadMetrics(deps, input.client, input.params.scope, input.query, input.groupScope())),

    [devicesList.id]: implementForTenant(devicesList, async (input, deps) =>
      pageWithHeldBy(deps, input.client, await listDevices(deps, input.client, input.query, input.groupScope()), holdsOfDevice),
    ),
    [devicesGet.id]: implementForTenant(devicesGet, async (input, deps) =>
      oneWithHeldBy(deps, input.client, await getDevice(deps, input.client, input.params.device_reference, input.groupScope()), holdsOfDevice),
    ),
    [devicesDeactivate.id]: implementForTenant(devicesDeactivate, (input, deps) =>
      deactivateDevice(deps, input.client, input.params.device_reference, input.principal, input.groupScope()),
    ),
    [deviceCommandsList.id]: implementForTenant(deviceCommandsList, (input, deps) =>
      listDeviceCommands(deps, input.client, input.params.device_reference, input.query, input.groupScope()),
    ),
    [deviceCommandsSend.id]: implementForTenant(deviceCommandsSend, async (input, deps) => {
      const command = await sendCommand(deps, input.client, input.params.device_reference, input.body, actorRecordOf(input.principal), input.groupScope());
      return reply(command, { status: 201 });
    }),
    [commandsList.id]: implementForTenant(commandsList, (input, deps) => listCommands(deps, input.client, input.query, input.groupScope())),
    [devicesHistory.id]: implementForTenant(devicesHistory, async (input, deps) => {
      const page = await listDeviceHistory(deps, input.client, input.params.device_reference, { ...input.query, result_type: 'page' }, input.groupScope());
      if (!('data' in page)) throw new Error('history lists a page');
      return page;
    }),

    [usersList.id]: implementForTenant(usersList, async (input, deps) =>
      pageWithHeldBy(deps, input.client, await listDeviceUsers(deps, input.client, input.query, input.groupScope()), holdsOfDeviceUser),
    ),
    [usersGet.id]: implementForTenant(usersGet, async (input, deps) =>
      oneWithHeldBy(deps, input.client, await getDeviceUser(deps, input.client, input.params.device_user_reference, input.groupScope()), holdsOfDeviceUser),
    ),
    [usersCreate.id]: implementForTenant(usersCreate, async (input, deps) => {
      const { user, created } = await onboardDeviceUser(deps, input.client, input.params.device_user_reference, input.body, input.principal, input.groupScope());
      return reply(user, { status: created ? 201 : 200 });
    }),
    [usersUpdate.id]: implementForTenant(usersUpdate, (input, deps) =>
      updateDeviceUser(deps, input.client, input.params.device_user_reference, input.body, input.principal, input.groupScope()),
    ),
    [usersDelete.id]: implementForTenant(usersDelete, async (input, deps) => {
      await offboardDeviceUser(deps, input.client, input.params.device_user_reference, input.principal, input.groupScope());
      return { ok: true as const };
    }),
    [usersDevices.id]: implementForTenant(usersDevices, async (input, deps) =>
      pageWithHeldBy(deps, input.client, await listDeviceUserDevices(deps, input.client, input.params.device_user_reference, input.query, input.groupScope()), holdsOfDevice),
    ),
  },
});
