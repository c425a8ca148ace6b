import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listCommands } from './list-commands.ts';
import { listDeviceCommands } from './list-device-commands.ts';

/** `POST devices/{device_reference}/commands`. */
export const sendDeviceCommand = endpointOf(deviceEndpoints, 'admin.devices.commands.send');

/** A sent command shows in the device's commands and in the commands across devices. */
export function useSendDeviceCommand() {
  return useEndpointMutation(sendDeviceCommand, { invalidates: [listDeviceCommands, listCommands], formErrors: true });
}
