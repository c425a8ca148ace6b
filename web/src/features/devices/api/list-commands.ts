import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET commands`. */
export const listCommands = endpointOf(deviceEndpoints, 'admin.commands.list');
