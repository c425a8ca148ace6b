import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET device_activities`: every call made by a device to the device API. */
export const listDeviceActivity = endpointOf(auditEndpoints, 'admin.device-activities.list');
export type DeviceActivityQuery = NonNullable<CallInput<typeof listDeviceActivity>['query']>;

export function useDeviceActivity(query: DeviceActivityQuery, enabled: boolean) {
  return useCursorList(listDeviceActivity, { query }, { enabled });
}
