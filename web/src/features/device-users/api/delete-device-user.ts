import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `DELETE users/{device_user_reference}`. */
export const deleteDeviceUser = endpointOf(deviceEndpoints, 'admin.users.delete');
