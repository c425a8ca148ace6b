import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET metrics/{scope}`. */
export const getMetrics = endpointOf(deviceEndpoints, 'admin.metrics.get');
