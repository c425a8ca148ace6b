import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getDevice } from './get-device.ts';
import { listDevices } from './list-devices.ts';

/** `DELETE devices/{device_reference}`. */
export const deactivateDevice = endpointOf(deviceEndpoints, 'admin.devices.deactivate');

/** Deactivating changes the device and the list that shows its status. */
export function useDeactivateDevice() {
  return useEndpointMutation(deactivateDevice, { invalidates: [getDevice, listDevices] });
}
