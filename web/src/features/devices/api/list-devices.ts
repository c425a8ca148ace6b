import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET devices`. */
export const listDevices = endpointOf(deviceEndpoints, 'admin.devices.list');

type DeviceListQuery = NonNullable<CallInput<typeof listDevices>['query']>;

export function useDevices(query: DeviceListQuery) {
  return useCursorList(listDevices, { query });
}
