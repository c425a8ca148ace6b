import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices/{device_reference}/telemetry`. */
export const listDeviceTelemetry = endpointOf(deviceEndpoints, 'admin.devices.telemetry');
