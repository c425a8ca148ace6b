import * as z from 'zod';
import { Gps } from '#shared/contract/entities/gps.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { TIMED_DEVICE_DATA_INDEXES, timedDeviceDataKeys } from './device-log.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** GPS fixes: the same four time-ordered lists as device logs (by the fix's `timestamp`, UTC), prefix `GPS#`. */
export const gpsKeys = timedDeviceDataKeys({ sortTag: 'GPS', listTag: 'GPS', entity: ENTITY.gps });

/**
 * One GPS fix (`keys.gps`), on the same four lists as log lines, by the fix's time (UTC). The contract's `Gps`,
 * always with its device, and what stays off the wire: the tenant and when the fix arrived.
 */
export const gpsItemSchema = /* @__PURE__ */ onFirstUse(() => Gps.extend({
  device_reference: z.string(),
  client: z.string().optional(),
  received_at: z.string().optional(),
}));
export type GpsItem = z.infer<ReturnType<typeof gpsItemSchema>>;

export function readGps(item: TableItem): GpsItem {
  return readItem('Gps', gpsItemSchema(), item);
}

/** The fix's item: its keys on the four lists, placed by its time and the device's holder and group then. */
export function gpsToItem(client: string, fix: GpsItem): TableItem {
  const place = { time: fix.timestamp, id: fix.gps_reference, deviceReference: fix.device_reference, deviceUserReference: fix.device_user_reference, group: fix.group };
  return { ...gpsKeys.item(client, place), ...fix };
}

/** The fix as the API answers it (tenant and arrival time stay off the wire). */
export function toGps(stored: GpsItem): Gps {
  const { client: _client, received_at: _received, ...fix } = stored;
  return fix;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const gpsModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.gps,
  title: 'GPS fix',
  module: 'gps.ts',
  indexes: TIMED_DEVICE_DATA_INDEXES,
  items: [
    {
      when: 'byDeviceUser and byGroup as the device was held when it arrived',
      example: () => gpsKeys.item(EXAMPLE_CLIENT, { time: '<time>', id: '<id>', deviceReference: '<device_reference>', deviceUserReference: '<device_user_reference>', group: '<group>' }),
    },
  ],
  accessPatterns: [
    { name: 'One device\'s GPS fixes, by time', serves: 'device data lists (time range: key condition)', builders: ['keys.gps.byDevice'], example: () => gpsKeys.byDevice(EXAMPLE_CLIENT, '<device_reference>') },
    { name: 'The tenant\'s GPS fixes, by time', serves: 'device data lists', builders: ['keys.gps.byTenant'], example: () => gpsKeys.byTenant(EXAMPLE_CLIENT) },
    {
      name: 'A device user\'s GPS fixes, by time',
      serves: 'device data lists; what a device user\'s hold covers',
      builders: ['keys.gps.byDeviceUser'],
      example: () => gpsKeys.byDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    { name: 'A group\'s GPS fixes, by time', serves: 'device data lists', builders: ['keys.gps.byGroup'], example: () => gpsKeys.byGroup(EXAMPLE_CLIENT, '<group>') },
  ],
}));
