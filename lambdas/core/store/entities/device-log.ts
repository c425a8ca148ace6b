import * as z from 'zod';
import { DeviceLog } from '#shared/contract/entities/logs.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * One device log line (`keys.deviceLog`), on its device's, its holder's, its group's and the tenant's lists by its
 * time (UTC). The contract's `DeviceLog`, always with its device, and what stays off the wire: the tenant and when the
 * line arrived.
 */
export const DeviceLogItem = DeviceLog.extend({
  device_reference: z.string(),
  client: z.string().optional(),
  received_at: z.string().optional(),
});
export type DeviceLogItem = z.infer<typeof DeviceLogItem>;

export function readDeviceLog(item: TableItem): DeviceLogItem {
  return readItem('DeviceLog', DeviceLogItem, item);
}

/** The line's item: its keys on the four lists, placed by its time and the device's holder and group then. */
export function deviceLogToItem(client: string, log: DeviceLogItem): TableItem {
  const place = { time: log.log_datetime, id: log.log_id, deviceReference: log.device_reference, deviceUserReference: log.device_user_reference, group: log.group };
  return { ...keys.deviceLog.item(client, place), ...log };
}

/** The line as the API answers it (tenant and arrival time stay off the wire). */
export function toDeviceLog(stored: DeviceLogItem): DeviceLog {
  const { client: _client, received_at: _received, ...log } = stored;
  return log;
}
