import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET metrics/{scope}`: the recorded counts of the services overview. */
export const getMetrics = endpointOf(deviceEndpoints, 'admin.metrics.get');
