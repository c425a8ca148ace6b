import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices/{device_reference}`. */
export const getDevice = endpointOf(deviceEndpoints, 'admin.devices.get');
