import type * as z from 'zod';
import { DeviceActivity } from '#shared/contract/entities/activity.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { trailPartition, PENDING_INDEX } from './audit-chain.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';
import { activityChainKeys } from './audit-chain.ts';

/** Named indexes of a device activity record (the pending list is the audit chain's: audit-chain.ts). */
export const DEVICE_ACTIVITY_INDEXES = { byDevice: 'gsi1', ...PENDING_INDEX } as const;

const byDevicePartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#ACTIVITY`;

export const deviceActivityKeys = {
  item: (client: string, activity: { activityTime: Date | string; logId: string; deviceReference: string }): ItemKeys => ({
    pk: trailPartition('device', client),
    sk: timeSort(activity.activityTime, activity.logId),
    entity: ENTITY.deviceActivity,
    ...onIndex[DEVICE_ACTIVITY_INDEXES.byDevice](byDevicePartition(client, activity.deviceReference), timeSort(activity.activityTime, activity.logId)),
  }),
  list: (client: string): ListKey => list(undefined, trailPartition('device', client)),
  listByDevice: (client: string, deviceReference: string): ListKey => list(DEVICE_ACTIVITY_INDEXES.byDevice, byDevicePartition(client, deviceReference)),
};

/**
 * One device API call (`keys.deviceActivity`), as the device data lists read it: the contract's `DeviceActivity`.
 * The audit trail writes these records and chains them (lambdas/audit/trail); its chain attributes are the trail's
 * own and are not read here.
 */
export const deviceActivityItemSchema = /* @__PURE__ */ onFirstUse(() => DeviceActivity);
export type DeviceActivityItem = z.infer<ReturnType<typeof deviceActivityItemSchema>>;

export function readDeviceActivity(item: TableItem): DeviceActivityItem {
  return readItem('DeviceActivity', deviceActivityItemSchema(), item);
}

/** The call as the API answers it. */
export function toDeviceActivity(stored: DeviceActivityItem): DeviceActivity {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceActivityModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceActivity,
  title: 'Device activity record',
  module: 'device-activity.ts',
  indexes: DEVICE_ACTIVITY_INDEXES,
  items: [
    {
      when: 'pending until linked',
      example: () => ({
        ...deviceActivityKeys.item(EXAMPLE_CLIENT, { activityTime: '<activity_time>', logId: '<log_id>', deviceReference: '<device_reference>' }),
        ...activityChainKeys.pendingKeys('device', EXAMPLE_CLIENT, '<activity_time>#<log_id>'),
      }),
    },
  ],
  accessPatterns: [
    { name: 'List device activity, by time', serves: '`GET device_activities`', builders: ['keys.deviceActivity.list'], example: () => deviceActivityKeys.list(EXAMPLE_CLIENT) },
    { name: 'List one device\'s activity', serves: 'device detail', builders: ['keys.deviceActivity.listByDevice'], example: () => deviceActivityKeys.listByDevice(EXAMPLE_CLIENT, '<device_reference>') },
  ],
}));
