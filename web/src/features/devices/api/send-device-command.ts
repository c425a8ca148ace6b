import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `POST devices/{device_reference}/commands`. */
export const sendDeviceCommand = endpointOf(deviceEndpoints, 'admin.devices.commands.send');
