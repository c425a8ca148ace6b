import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** What a device user's devices recorded (client surface; a portal user's token is accepted). */
export const listDeviceUserLogs = endpointOf(deviceDataEndpoints, 'client.users.logs');

type DeviceUserLogsQuery = NonNullable<CallInput<typeof listDeviceUserLogs>['query']>;

export function useDeviceUserLogs(deviceUserReference: string, query: DeviceUserLogsQuery) {
  return useCursorList(listDeviceUserLogs, { params: { device_user_reference: deviceUserReference }, query });
}
