import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

export const listDevices = endpointOf(deviceEndpoints, 'admin.devices.list');
export const getDevice = endpointOf(deviceEndpoints, 'admin.devices.get');
export const deactivateDevice = endpointOf(deviceEndpoints, 'admin.devices.deactivate');
export const listDeviceCommands = endpointOf(deviceEndpoints, 'admin.devices.commands.list');
export const sendDeviceCommand = endpointOf(deviceEndpoints, 'admin.devices.commands.send');
export const listDeviceHistory = endpointOf(deviceEndpoints, 'admin.devices.history');
export const listDeviceTelemetry = endpointOf(deviceEndpoints, 'admin.devices.telemetry');
export const listCommands = endpointOf(deviceEndpoints, 'admin.commands.list');
export const listTelemetry = endpointOf(deviceEndpoints, 'admin.telemetry.list');
export const getMetrics = endpointOf(deviceEndpoints, 'admin.metrics.get');
export const listDeviceLogs = endpointOf(deviceDataEndpoints, 'client.device-logs.list');
export const listOneDeviceLogs = endpointOf(deviceDataEndpoints, 'client.devices.logs');
export const listGps = endpointOf(deviceDataEndpoints, 'client.gps.list');
export const listDeviceGps = endpointOf(deviceDataEndpoints, 'client.devices.gps');
