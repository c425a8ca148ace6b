import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET devices/{device_reference}/gps`. */
export const listDeviceGps = endpointOf(deviceDataEndpoints, 'client.devices.gps');

type DeviceGpsQuery = NonNullable<CallInput<typeof listDeviceGps>['query']>;

export function useDeviceGps(deviceReference: string, query: DeviceGpsQuery, enabled: boolean) {
  return useCursorList(listDeviceGps, { params: { device_reference: deviceReference }, query }, { enabled });
}
