import { ENTITY, list, part, tenantPrefix, timeSort, type EntityName, type ItemKeys, type ListKey } from '../key-parts.ts';

/** What devices report, time-ordered: device activity, log lines, GPS fixes and telemetry. */

/** Where a timed device record (log line, GPS fix) sits: its time, id, device and the device's holder then. */
export interface TimedDeviceData {
  time: Date | string;
  id: string;
  deviceReference: string;
  deviceUserReference?: string | undefined;
  group?: string | undefined;
}

/** A time-ordered list: sort keys are `<sortPrefix><ISO time>#<id>`, so a time range is a key condition. */
export type TimedList = ListKey & { sortPrefix: string };

function deviceTimedList(client: string, deviceReference: string, sortPrefix: string): TimedList {
  return { ...list(undefined, `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`), sortPrefix };
}

function timedDeviceDataKeys(client: string, entry: TimedDeviceData, sortTag: string, listTag: string, entity: EntityName): ItemKeys {
  const sort = timeSort(entry.time, entry.id);
  const tenant = tenantPrefix(client);
  return {
    pk: `${tenant}DEVICE#${part(entry.deviceReference)}`,
    sk: `${sortTag}#${sort}`,
    entity,
    gsi1pk: `${tenant}DEVICE_${listTag}`,
    gsi1sk: sort,
    ...(entry.deviceUserReference === undefined ? {} : { gsi2pk: `${tenant}DUSER#${part(entry.deviceUserReference)}#${listTag}`, gsi2sk: sort }),
    ...(entry.group === undefined ? {} : { gsi3pk: `${tenant}GROUP#${part(entry.group)}#${listTag}`, gsi3sk: sort }),
  };
}

export const deviceDataKeys = {
  deviceActivity: {
    item: (client: string, activity: { activityTime: Date | string; logId: string; deviceReference: string }): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE_ACTIVITY`,
      sk: timeSort(activity.activityTime, activity.logId),
      entity: ENTITY.deviceActivity,
      gsi1pk: `${tenantPrefix(client)}DEVICE#${part(activity.deviceReference)}#ACTIVITY`,
      gsi1sk: timeSort(activity.activityTime, activity.logId),
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}DEVICE_ACTIVITY`),
    listByDevice: (client: string, deviceReference: string): ListKey =>
      list('gsi1', `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#ACTIVITY`),
  },
  /**
   * Device logs (lambdas/device-data). One item per log line, time-ordered by its `log_datetime` (UTC) in four
   * lists, each one Query with the time range as a key condition: per device (the device's partition, sort-key
   * prefix `LOG#`), per tenant (gsi1), per device user (gsi2) and per group (gsi3), the last two as the device was
   * held when the line arrived.
   */
  deviceLog: {
    item: (client: string, entry: TimedDeviceData): ItemKeys =>
      timedDeviceDataKeys(client, entry, 'LOG', 'LOGS', ENTITY.deviceLog),
    byDevice: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'LOG#'),
    byTenant: (client: string): TimedList => ({ ...list('gsi1', `${tenantPrefix(client)}DEVICE_LOGS`), sortPrefix: '' }),
    byDeviceUser: (client: string, deviceUserReference: string): TimedList => ({
      ...list('gsi2', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#LOGS`),
      sortPrefix: '',
    }),
    byGroup: (client: string, group: string): TimedList => ({ ...list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#LOGS`), sortPrefix: '' }),
  },
  /** GPS fixes: the same four time-ordered lists as device logs (by the fix's `timestamp`, UTC), prefix `GPS#`. */
  gps: {
    item: (client: string, entry: TimedDeviceData): ItemKeys => timedDeviceDataKeys(client, entry, 'GPS', 'GPS', ENTITY.gps),
    byDevice: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'GPS#'),
    byTenant: (client: string): TimedList => ({ ...list('gsi1', `${tenantPrefix(client)}DEVICE_GPS`), sortPrefix: '' }),
    byDeviceUser: (client: string, deviceUserReference: string): TimedList => ({
      ...list('gsi2', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#GPS`),
      sortPrefix: '',
    }),
    byGroup: (client: string, group: string): TimedList => ({ ...list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#GPS`), sortPrefix: '' }),
  },
  /**
   * Telemetry, in the device's partition: the latest report (`TELEMETRY#LATEST`, one GetItem, batch-read for the
   * fleet list) and every report by receive time (`TELEMETRY#AT#<received ISO>#<id>`, newest first with a range).
   */
  telemetry: {
    latest: (client: string, deviceReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'TELEMETRY#LATEST',
      entity: ENTITY.telemetry,
    }),
    history: (client: string, deviceReference: string, receivedAt: Date | string, id: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: `TELEMETRY#AT#${timeSort(receivedAt, id)}`,
      entity: ENTITY.telemetry,
    }),
    historyOf: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'TELEMETRY#AT#'),
  },
};
