import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET users/{device_user_reference}/gps`. */
export const listDeviceUserGps = endpointOf(deviceDataEndpoints, 'client.users.gps');

type DeviceUserGpsQuery = NonNullable<CallInput<typeof listDeviceUserGps>['query']>;

export function useDeviceUserGps(deviceUserReference: string, query: DeviceUserGpsQuery) {
  return useCursorList(listDeviceUserGps, { params: { device_user_reference: deviceUserReference }, query });
}
