import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET devices/{device_reference}/telemetry`. */
export const listDeviceTelemetry = endpointOf(deviceEndpoints, 'admin.devices.telemetry');

type DeviceTelemetryQuery = NonNullable<CallInput<typeof listDeviceTelemetry>['query']>;

export function useDeviceTelemetry(deviceReference: string, query: DeviceTelemetryQuery, enabled: boolean) {
  return useCursorList(listDeviceTelemetry, { params: { device_reference: deviceReference }, query }, { enabled });
}
