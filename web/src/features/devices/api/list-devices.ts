import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices`. */
export const listDevices = endpointOf(deviceEndpoints, 'admin.devices.list');
