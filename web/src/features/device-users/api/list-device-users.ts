import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET users`: the device users (the list, and the pickers that search it). */
export const listDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');

type DeviceUserListQuery = NonNullable<CallInput<typeof listDeviceUsers>['query']>;

export function useDeviceUsers(query: DeviceUserListQuery) {
  return useCursorList(listDeviceUsers, { query });
}
