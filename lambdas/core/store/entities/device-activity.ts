import type * as z from 'zod';
import { DeviceActivity } from '#shared/contract/entities/activity.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { readItem } from './read-item.ts';

/**
 * One device API call (`keys.deviceActivity`), as the device data lists read it: the contract's `DeviceActivity`.
 * The audit trail writes these records and chains them (lambdas/audit/trail); its chain attributes are the trail's
 * own and are not read here.
 */
export const DeviceActivityItem = DeviceActivity;
export type DeviceActivityItem = z.infer<typeof DeviceActivityItem>;

export function readDeviceActivity(item: TableItem): DeviceActivityItem {
  return readItem('DeviceActivity', DeviceActivityItem, item);
}

/** The call as the API answers it. */
export function toDeviceActivity(stored: DeviceActivityItem): DeviceActivity {
  return stored;
}
