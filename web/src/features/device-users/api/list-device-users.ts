import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET users`: the device users (the list, and the pickers that search it). */
export const listDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');
