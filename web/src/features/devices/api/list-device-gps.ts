import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET devices/{device_reference}/gps`. */
export const listDeviceGps = endpointOf(deviceDataEndpoints, 'client.devices.gps');
