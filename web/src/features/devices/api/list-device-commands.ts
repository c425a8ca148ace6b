import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices/{device_reference}/commands`. */
export const listDeviceCommands = endpointOf(deviceEndpoints, 'admin.devices.commands.list');
