import { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET device_logs`. */
export const listDeviceLogs = endpointOf(deviceDataEndpoints, 'client.device-logs.list');

type DeviceLogQuery = NonNullable<CallInput<typeof listDeviceLogs>['query']>;

export function useDeviceLogs(query: DeviceLogQuery, enabled: boolean) {
  return useCursorList(listDeviceLogs, { query }, { enabled });
}
