import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET users/{device_user_reference}/devices`. */
export const listDeviceUserDevices = endpointOf(deviceEndpoints, 'admin.users.devices');

type DeviceUserDevicesQuery = NonNullable<CallInput<typeof listDeviceUserDevices>['query']>;

export function useDeviceUserDevices(deviceUserReference: string, query: DeviceUserDevicesQuery) {
  return useCursorList(listDeviceUserDevices, { params: { device_user_reference: deviceUserReference }, query });
}
