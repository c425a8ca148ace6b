import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET users/{device_user_reference}/devices`. */
export const listDeviceUserDevices = endpointOf(deviceEndpoints, 'admin.users.devices');
