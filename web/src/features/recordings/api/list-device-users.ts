import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET users`: the person filter's suggestions (device users whose name, reference or e-mail matches). */
export const listDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');
