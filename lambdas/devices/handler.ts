import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { groupScope } from '#core/auth/access/group-scope.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { telemetryRoutes } from './telemetry-routes.ts';
import { listCommands, listDeviceCommands, sendCommand } from '../commands/commands.ts';
import { actorOf } from './deactivation.ts';
import { getDashboard } from './dashboard/dashboard.ts';
import { listPayloadMetrics } from '../metrics/list-metrics.ts';
import { getDeviceUser, listDeviceUserDevices, listDeviceUsers, offboardDeviceUser, onboardDeviceUser, updateDeviceUser } from './device-users/device-users.ts';
import { deactivateDevice, getDevice, listDeviceHistory, listDevices } from './device-service.ts';

/**
 * The group's endpoints, in the contract's order (the order is what types each route; checked by id at load).
 */
const [
  dashboardGet,
  devicesList,
  devicesGet,
  devicesDeactivate,
  ,
  ,
  devicesHistory,
  ,
  ,
  ,
  ,
  usersList,
  usersGet,
  usersCreate,
  usersUpdate,
  usersDelete,
  usersDevices,
] = deviceEndpoints;

/** Commands (lambdas/commands), by position in the contract (checked by id below). */
const [deviceCommandsList, deviceCommandsSend, commandsList] = [deviceEndpoints[4], deviceEndpoints[5], deviceEndpoints[8]];
/** Payload metrics (lambdas/metrics), by position in the contract (checked by id below). */
const metricsGet = deviceEndpoints[10];

const expected: Array<[{ id: string }, string]> = [
  [deviceCommandsList, 'admin.devices.commands.list'],
  [deviceCommandsSend, 'admin.devices.commands.send'],
  [commandsList, 'admin.commands.list'],
  [metricsGet, 'admin.metrics.get'],
  [dashboardGet, 'admin.dashboard.get'],
  [devicesList, 'admin.devices.list'],
  [devicesGet, 'admin.devices.get'],
  [devicesDeactivate, 'admin.devices.deactivate'],
  [devicesHistory, 'admin.devices.history'],
  [usersList, 'admin.users.list'],
  [usersGet, 'admin.users.get'],
  [usersCreate, 'admin.users.create'],
  [usersUpdate, 'admin.users.update'],
  [usersDelete, 'admin.users.delete'],
  [usersDevices, 'admin.users.devices'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`devices handler expected ${id}, found ${endpoint.id}`);
}

/** Every endpoint of the group has `{client}` in its path; the router checked it against the caller's tenant. */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new Error('devices routes need the path client');
  return input.client;
}

/** The caller's group scope for the endpoint's own action (lambdas/core/auth/access/group-scope.ts). */
function scopeOf(endpoint: { action: string }, input: Pick<RouteInput, 'client' | 'access'>, deps: Dependencies) {
  return groupScope(deps, clientOf(input), input.access, endpoint.action);
}

/** Lambda entry of the `devices` group: device users, devices (admin side) and the dashboard. */
export const handler = createApiHandler({
  group: 'devices',
  endpoints: deviceEndpoints,
  routes: {
    ...telemetryRoutes,
    [dashboardGet.id]: implement(dashboardGet, (input, deps) => getDashboard(deps, clientOf(input), scopeOf(dashboardGet, input, deps))),
    [metricsGet.id]: implement(metricsGet, (input, deps) => listPayloadMetrics(deps, clientOf(input), input.params.scope, input.query, scopeOf(metricsGet, input, deps))),

    [devicesList.id]: implement(devicesList, (input, deps) => listDevices(deps, clientOf(input), input.query, scopeOf(devicesList, input, deps))),
    [devicesGet.id]: implement(devicesGet, (input, deps) => getDevice(deps, clientOf(input), input.params.device_reference, scopeOf(devicesGet, input, deps))),
    [devicesDeactivate.id]: implement(devicesDeactivate, (input, deps) =>
      deactivateDevice(deps, clientOf(input), input.params.device_reference, input.principal, scopeOf(devicesDeactivate, input, deps)),
    ),
    [deviceCommandsList.id]: implement(deviceCommandsList, (input, deps) =>
      listDeviceCommands(deps, clientOf(input), input.params.device_reference, input.query, scopeOf(deviceCommandsList, input, deps)),
    ),
    [deviceCommandsSend.id]: implement(deviceCommandsSend, async (input, deps) => {
      const command = await sendCommand(deps, clientOf(input), input.params.device_reference, input.body, actorOf(input.principal), scopeOf(deviceCommandsSend, input, deps));
      return reply(command, { status: 201 });
    }),
    [commandsList.id]: implement(commandsList, (input, deps) => listCommands(deps, clientOf(input), input.query, scopeOf(commandsList, input, deps))),
    [devicesHistory.id]: implement(devicesHistory, async (input, deps) => {
      const page = await listDeviceHistory(deps, clientOf(input), input.params.device_reference, { ...input.query, result_type: 'page' }, scopeOf(devicesHistory, input, deps));
      if (!('data' in page)) throw new Error('history lists a page');
      return page;
    }),

    [usersList.id]: implement(usersList, (input, deps) => listDeviceUsers(deps, clientOf(input), input.query, scopeOf(usersList, input, deps))),
    [usersGet.id]: implement(usersGet, (input, deps) => getDeviceUser(deps, clientOf(input), input.params.device_user_reference, scopeOf(usersGet, input, deps))),
    [usersCreate.id]: implement(usersCreate, async (input, deps) => {
      const { user, created } = await onboardDeviceUser(deps, clientOf(input), input.params.device_user_reference, input.body, input.principal, scopeOf(usersCreate, input, deps));
      return reply(user, { status: created ? 201 : 200 });
    }),
    [usersUpdate.id]: implement(usersUpdate, (input, deps) =>
      updateDeviceUser(deps, clientOf(input), input.params.device_user_reference, input.body, input.principal, scopeOf(usersUpdate, input, deps)),
    ),
    [usersDelete.id]: implement(usersDelete, async (input, deps) => {
      await offboardDeviceUser(deps, clientOf(input), input.params.device_user_reference, input.principal, scopeOf(usersDelete, input, deps));
      return { ok: true as const };
    }),
    [usersDevices.id]: implement(usersDevices, (input, deps) =>
      listDeviceUserDevices(deps, clientOf(input), input.params.device_user_reference, input.query, scopeOf(usersDevices, input, deps)),
    ),
  },
});
