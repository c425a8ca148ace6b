import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `PUT users/{device_user_reference}`. */
export const updateDeviceUser = endpointOf(deviceEndpoints, 'admin.users.update');
