import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { DeviceCommandState } from '#shared/constants/devices.ts';
import type { DeviceCommand } from '#shared/contract/entities/devices.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET devices/{device_reference}/commands`. */
export const listDeviceCommands = endpointOf(deviceEndpoints, 'admin.devices.commands.list');

/** A command the device has not finished with yet: its state still moves on without the user. */
const isCommandPending = (command: DeviceCommand): boolean => command.state === 'Sent' || command.state === 'Acknowledged';

/** One device's commands, in one state or all. */
export function useDeviceCommands(deviceReference: string, state: DeviceCommandState | undefined) {
  return useCursorList(listDeviceCommands, {
    params: { device_reference: deviceReference },
    query: state === undefined ? {} : { state },
  }, { pollWhile: isCommandPending });
}
