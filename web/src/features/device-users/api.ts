import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** The calls of the device user screens (list, detail, onboarding, offboarding, their devices). */
export const listDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');
export const getDeviceUser = endpointOf(deviceEndpoints, 'admin.users.get');
export const createDeviceUser = endpointOf(deviceEndpoints, 'admin.users.create');
export const updateDeviceUser = endpointOf(deviceEndpoints, 'admin.users.update');
export const deleteDeviceUser = endpointOf(deviceEndpoints, 'admin.users.delete');
export const listDeviceUserDevices = endpointOf(deviceEndpoints, 'admin.users.devices');
/** The group picker of the form and the group filter. */
export const listGroupsForPicker = endpointOf(accessEndpoints, 'admin.groups.list');
/** What a device user's devices recorded (client surface; a portal user's token is accepted). */
export const listDeviceUserLogs = endpointOf(deviceDataEndpoints, 'client.users.logs');
export const listDeviceUserGps = endpointOf(deviceDataEndpoints, 'client.users.gps');
