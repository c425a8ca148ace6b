import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getDeviceUser } from './get-device-user.ts';
import { listDeviceUserDevices } from './list-device-user-devices.ts';
import { listDeviceUsers } from './list-device-users.ts';

/** `POST users/{device_user_reference}`. */
export const createDeviceUser = endpointOf(deviceEndpoints, 'admin.users.create');

/** Onboarding changes the list, the user and the devices assigned to them; refused input shows under its fields. */
export function useCreateDeviceUser() {
  return useEndpointMutation(createDeviceUser, { invalidates: [listDeviceUsers, getDeviceUser, listDeviceUserDevices], formErrors: true });
}
