import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `DELETE devices/{device_reference}`. */
export const deactivateDevice = endpointOf(deviceEndpoints, 'admin.devices.deactivate');
