import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getDeviceUser } from './get-device-user.ts';
import { listDeviceUserDevices } from './list-device-user-devices.ts';
import { listDeviceUsers } from './list-device-users.ts';

/** `DELETE users/{device_user_reference}`. */
export const deleteDeviceUser = endpointOf(deviceEndpoints, 'admin.users.delete');

/** Offboarding is the DELETE (it keeps the record): it changes the list, the user and the devices assigned to them. */
export function useOffboardDeviceUser() {
  return useEndpointMutation(deleteDeviceUser, { invalidates: [getDeviceUser, listDeviceUsers, listDeviceUserDevices] });
}
