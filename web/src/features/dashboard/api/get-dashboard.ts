import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET dashboard`. */
export const getDashboard = endpointOf(deviceEndpoints, 'admin.dashboard.get');
