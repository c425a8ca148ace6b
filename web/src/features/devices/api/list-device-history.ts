import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices/{device_reference}/history`. */
export const listDeviceHistory = endpointOf(deviceEndpoints, 'admin.devices.history');
