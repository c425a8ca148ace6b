import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET users/{device_user_reference}/gps`. */
export const listDeviceUserGps = endpointOf(deviceDataEndpoints, 'client.users.gps');
