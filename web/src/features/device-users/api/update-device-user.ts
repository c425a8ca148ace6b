import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getDeviceUser } from './get-device-user.ts';
import { listDeviceUserDevices } from './list-device-user-devices.ts';
import { listDeviceUsers } from './list-device-users.ts';

/** `PUT users/{device_user_reference}`. */
export const updateDeviceUser = endpointOf(deviceEndpoints, 'admin.users.update');

/**
 * Editing (from the form, which shows refused input under its fields: `formErrors`) or re-onboarding (the detail's
 * action) changes the list, the user and the devices assigned to them.
 */
export function useUpdateDeviceUser(options: { formErrors?: boolean } = {}) {
  return useEndpointMutation(updateDeviceUser, { invalidates: [listDeviceUsers, getDeviceUser, listDeviceUserDevices], ...options });
}
