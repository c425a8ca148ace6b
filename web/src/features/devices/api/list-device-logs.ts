import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET device_logs`. */
export const listDeviceLogs = endpointOf(deviceDataEndpoints, 'client.device-logs.list');
