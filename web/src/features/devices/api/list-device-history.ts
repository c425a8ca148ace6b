import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET devices/{device_reference}/history`. */
export const listDeviceHistory = endpointOf(deviceEndpoints, 'admin.devices.history');

export function useDeviceHistory(deviceReference: string) {
  return useCursorList(listDeviceHistory, { params: { device_reference: deviceReference }, query: {} });
}
