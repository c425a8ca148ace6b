import * as z from 'zod';
import { DeviceLog } from '#shared/contract/entities/logs.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type EntityName } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { devicePartition, deviceTimedList, type TimedList } from './device.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Where a timed device record (log line, GPS fix) sits: its time, id, device and the device's holder then. */
export interface TimedDeviceData {
  time: Date | string;
  id: string;
  deviceReference: string;
  deviceUserReference?: string | undefined;
  group?: string | undefined;
}

/** Named indexes of a timed device record (log line, GPS fix). */
export const TIMED_DEVICE_DATA_INDEXES = { byTenantTime: 'gsi1', byDeviceUser: 'gsi2', byGroup: 'gsi3' } as const;

/**
 * The keys of a kind of timed device record: in the device's partition under `<sortTag>#<time>#<id>`, and on the
 * tenant's, the device user's and the group's lists of that kind (`listTag`). Device logs and GPS fixes share it.
 */
export function timedDeviceDataKeys(kind: { sortTag: string; listTag: string; entity: EntityName }) {
  const { sortTag, listTag, entity } = kind;
  const byTenant = (client: string) => `${tenantPrefix(client)}DEVICE_${listTag}`;
  const byDeviceUser = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#${listTag}`;
  const byGroup = (client: string, group: string) => `${tenantPrefix(client)}GROUP#${part(group)}#${listTag}`;
  const INDEXES = TIMED_DEVICE_DATA_INDEXES;
  return {
    item: (client: string, entry: TimedDeviceData): ItemKeys => {
      const sort = timeSort(entry.time, entry.id);
      return {
        pk: devicePartition(client, entry.deviceReference),
        sk: `${sortTag}#${sort}`,
        entity,
        ...onIndex[INDEXES.byTenantTime](byTenant(client), sort),
        ...(entry.deviceUserReference === undefined ? {} : onIndex[INDEXES.byDeviceUser](byDeviceUser(client, entry.deviceUserReference), sort)),
        ...(entry.group === undefined ? {} : onIndex[INDEXES.byGroup](byGroup(client, entry.group), sort)),
      };
    },
    byDevice: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, `${sortTag}#`),
    byTenant: (client: string): TimedList => ({ ...list(INDEXES.byTenantTime, byTenant(client)), sortPrefix: '' }),
    byDeviceUser: (client: string, deviceUserReference: string): TimedList => ({
      ...list(INDEXES.byDeviceUser, byDeviceUser(client, deviceUserReference)),
      sortPrefix: '',
    }),
    byGroup: (client: string, group: string): TimedList => ({ ...list(INDEXES.byGroup, byGroup(client, group)), sortPrefix: '' }),
  };
}

/**
 * Device logs (lambdas/device-data). One item per log line, time-ordered by its `log_datetime` (UTC) in four
 * lists, each one Query with the time range as a key condition: per device (the device's partition, sort-key
 * prefix `LOG#`), per tenant, per device user and per group, the last two as the device was held when the line arrived.
 */
export const deviceLogKeys = timedDeviceDataKeys({ sortTag: 'LOG', listTag: 'LOGS', entity: ENTITY.deviceLog });

/**
 * One device log line (`keys.deviceLog`), on its device's, its holder's, its group's and the tenant's lists by its
 * time (UTC). The contract's `DeviceLog`, always with its device, and what stays off the wire: the tenant and when the
 * line arrived.
 */
export const deviceLogItemSchema = /* @__PURE__ */ onFirstUse(() => DeviceLog.extend({
  device_reference: z.string(),
  client: z.string().optional(),
  received_at: z.string().optional(),
}));
export type DeviceLogItem = z.infer<ReturnType<typeof deviceLogItemSchema>>;

export function readDeviceLog(item: TableItem): DeviceLogItem {
  return readItem('DeviceLog', deviceLogItemSchema(), item);
}

/** The line's item: its keys on the four lists, placed by its time and the device's holder and group then. */
export function deviceLogToItem(client: string, log: DeviceLogItem): TableItem {
  const place = { time: log.log_datetime, id: log.log_id, deviceReference: log.device_reference, deviceUserReference: log.device_user_reference, group: log.group };
  return { ...deviceLogKeys.item(client, place), ...log };
}

/** The line as the API answers it (tenant and arrival time stay off the wire). */
export function toDeviceLog(stored: DeviceLogItem): DeviceLog {
  const { client: _client, received_at: _received, ...log } = stored;
  return log;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceLogModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceLog,
  title: 'Device log line',
  module: 'device-log.ts',
  indexes: TIMED_DEVICE_DATA_INDEXES,
  items: [
    {
      when: 'byDeviceUser and byGroup as the device was held when it arrived',
      example: () => deviceLogKeys.item(EXAMPLE_CLIENT, { time: '<time>', id: '<id>', deviceReference: '<device_reference>', deviceUserReference: '<device_user_reference>', group: '<group>' }),
    },
  ],
  accessPatterns: [
    { name: 'One device\'s log lines, by time', serves: 'device data lists (time range: key condition)', builders: ['keys.deviceLog.byDevice'], example: () => deviceLogKeys.byDevice(EXAMPLE_CLIENT, '<device_reference>') },
    { name: 'The tenant\'s log lines, by time', serves: 'device data lists', builders: ['keys.deviceLog.byTenant'], example: () => deviceLogKeys.byTenant(EXAMPLE_CLIENT) },
    {
      name: 'A device user\'s log lines, by time',
      serves: 'device data lists; what a device user\'s hold covers',
      builders: ['keys.deviceLog.byDeviceUser'],
      example: () => deviceLogKeys.byDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    { name: 'A group\'s log lines, by time', serves: 'device data lists', builders: ['keys.deviceLog.byGroup'], example: () => deviceLogKeys.byGroup(EXAMPLE_CLIENT, '<group>') },
  ],
}));
