import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/**
 * `GET commands`: the tenant's commands across devices. No screen lists them (a device's page reads its own), so it has
 * no hook: it is bound for sending a command, which invalidates it.
 */
export const listCommands = endpointOf(deviceEndpoints, 'admin.commands.list');
