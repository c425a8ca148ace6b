import { listGps, listLogs } from './reads.ts';
import { groupScope } from '#core/auth/access/group-scope.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';

/** The group's endpoints, in the contract's order (the order is what types each route; checked by id at load). */
const [logsList, deviceLogs, userLogs, gpsList, deviceGps, userGps] = deviceDataEndpoints;
const expected: Array<[{ id: string }, string]> = [
  [logsList, 'client.device-logs.list'],
  [deviceLogs, 'client.devices.logs'],
  [userLogs, 'client.users.logs'],
  [gpsList, 'client.gps.list'],
  [deviceGps, 'client.devices.gps'],
  [userGps, 'client.users.gps'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`device-data handler expected ${id}, found ${endpoint.id}`);
}

/** Every endpoint of the group has `{client}` in its path; the router checked it against the caller's tenant. */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new Error('device-data routes need the path client');
  return input.client;
}

/** The caller's group scope for the endpoint's own action: records of other groups stay out of every list. */
function scopeOf(endpoint: { action: string }, input: Pick<RouteInput, 'client' | 'access'>, deps: Dependencies) {
  return groupScope(deps, clientOf(input), input.access, endpoint.action);
}

/**
 * Lambda entry of the `device-data` group: device logs and GPS fixes for the client portal and client apps, by
 * tenant, device or device user, newest first, with date ranges and cursors (lambdas/device-data/reads.ts).
 */
export const handler = createApiHandler({
  group: 'device-data',
  endpoints: deviceDataEndpoints,
  routes: {
    [logsList.id]: implement(logsList, (input, deps) => listLogs(deps, clientOf(input), input.query, scopeOf(logsList, input, deps))),
    [deviceLogs.id]: implement(deviceLogs, (input, deps) =>
      listLogs(deps, clientOf(input), { ...input.query, device_reference: input.params.device_reference }, scopeOf(deviceLogs, input, deps)),
    ),
    [userLogs.id]: implement(userLogs, (input, deps) =>
      listLogs(deps, clientOf(input), { ...input.query, device_user_reference: input.params.device_user_reference }, scopeOf(userLogs, input, deps)),
    ),
    [gpsList.id]: implement(gpsList, (input, deps) => listGps(deps, clientOf(input), input.query, scopeOf(gpsList, input, deps))),
    [deviceGps.id]: implement(deviceGps, (input, deps) =>
      listGps(deps, clientOf(input), { ...input.query, device_reference: input.params.device_reference }, scopeOf(deviceGps, input, deps)),
    ),
    [userGps.id]: implement(userGps, (input, deps) =>
      listGps(deps, clientOf(input), { ...input.query, device_user_reference: input.params.device_user_reference }, scopeOf(userGps, input, deps)),
    ),
  },
});
