import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** What a device user's devices recorded (client surface; a portal user's token is accepted). */
export const listDeviceUserLogs = endpointOf(deviceDataEndpoints, 'client.users.logs');
