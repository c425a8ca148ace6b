import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `POST users/{device_user_reference}`. */
export const createDeviceUser = endpointOf(deviceEndpoints, 'admin.users.create');
