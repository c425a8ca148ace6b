import * as z from 'zod';
import { InstallState } from '#shared/constants/devices.ts';
import { Device, DeviceHistory, DevicePhoneNumber } from '#shared/contract/entities/devices.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes of a device: the tenant's devices, a device user's, a group's. */
export const DEVICE_INDEXES = { byTenant: 'gsi1', byDeviceUser: 'gsi2', byGroup: 'gsi3' } as const;

/** A device's own partition: the device, and what hangs off it by sort-key prefix (history, commands, telemetry, logs, GPS). */
export const devicePartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`;

/** A time-ordered list: sort keys are `<sortPrefix><ISO time>#<id>`, so a time range is a key condition. */
export type TimedList = ListKey & { sortPrefix: string };

/** A time-ordered list in the device's partition (log lines, GPS fixes, telemetry reports), by sort-key prefix. */
export function deviceTimedList(client: string, deviceReference: string, sortPrefix: string): TimedList {
  return { ...list(undefined, devicePartition(client, deviceReference)), sortPrefix };
}

export const deviceKeys = {
  /** A device's own partition also holds its history, commands and telemetry (by sort key prefix). */
  item: (client: string, deviceReference: string, deviceUserReference?: string, group?: string): ItemKeys => ({
    pk: devicePartition(client, deviceReference),
    sk: 'DEVICE',
    entity: ENTITY.device,
    ...onIndex[DEVICE_INDEXES.byTenant](`${tenantPrefix(client)}DEVICES`, part(deviceReference)),
    ...(deviceUserReference === undefined
      ? {}
      : onIndex[DEVICE_INDEXES.byDeviceUser](`${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#DEVICES`, part(deviceReference))),
    ...(group === undefined ? {} : onIndex[DEVICE_INDEXES.byGroup](`${tenantPrefix(client)}GROUP#${part(group)}#DEVICES`, part(deviceReference))),
  }),
  list: (client: string): ListKey => list(DEVICE_INDEXES.byTenant, `${tenantPrefix(client)}DEVICES`),
  listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
    list(DEVICE_INDEXES.byDeviceUser, `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#DEVICES`),
  listByGroup: (client: string, group: string): ListKey => list(DEVICE_INDEXES.byGroup, `${tenantPrefix(client)}GROUP#${part(group)}#DEVICES`),
  /** Primary key alone (get, update) when the list keys are not needed. */
  key: (client: string, deviceReference: string): ItemKey => ({ pk: devicePartition(client, deviceReference), sk: 'DEVICE' }),
  /** The device's partition (item, history, and what other parts keep there by sort-key prefix). */
  partition: (client: string, deviceReference: string): ListKey => list(undefined, devicePartition(client, deviceReference)),
};

/**
 * One holding period of a device (who held it, in which group, from when). Sort key `HISTORY#<from ISO>#<id>` in
 * the device's partition: a Query on the prefix lists the periods in time order, and a `from` range is a key condition.
 */
const HISTORY_PREFIX = 'HISTORY#';

export const deviceHistoryKeys = {
  /** Sort-key prefix of the history records in the device's partition. */
  historyPrefix: HISTORY_PREFIX,
  history: (client: string, deviceReference: string, from: Date | string, id: string): ItemKey => ({
    pk: devicePartition(client, deviceReference),
    sk: `${HISTORY_PREFIX}${timeSort(from, id)}`,
  }),
};

/** Named index: the tenant's active devices by last_seen, oldest first. */
export const DEVICE_LAST_SEEN_INDEXES = { byLastSeen: 'gsi1' } as const;

const byLastSeenPartition = (client: string) => `${tenantPrefix(client)}DEVICES#BY_LAST_SEEN`;

/**
 * The device's place in the tenant's last-seen index, for the inactivity job (lambdas/devices/deactivation.ts).
 * Decision: a small item of its own in the device's partition (`LAST_SEEN`), not index attributes on the device:
 * the device item already uses all three indexes (all, by device user, by group). It exists only while the device
 * is active: device authentication writes it with last_seen, every deactivation deletes it, in the same
 * transaction as the device, so the index holds exactly the active devices, oldest seen first.
 */
export const deviceLastSeenKeys = {
  lastSeen: (client: string, deviceReference: string, lastSeen: Date | string): ItemKeys => ({
    pk: devicePartition(client, deviceReference),
    sk: 'LAST_SEEN',
    entity: ENTITY.deviceLastSeen,
    ...onIndex[DEVICE_LAST_SEEN_INDEXES.byLastSeen](byLastSeenPartition(client), timeSort(lastSeen, deviceReference)),
  }),
  lastSeenKey: (client: string, deviceReference: string): ItemKey => ({ pk: devicePartition(client, deviceReference), sk: 'LAST_SEEN' }),
  /** Active devices by last_seen, oldest first (a range up to a threshold is a key condition). */
  listByLastSeen: (client: string): ListKey => list(DEVICE_LAST_SEEN_INDEXES.byLastSeen, byLastSeenPartition(client)),
};

/**
 * A device (`deviceKeys.item`): the contract's `Device` and what the store keeps off the wire, the install state of
 * its last authentication (docs/device-protocol.md). The item's index keys place it in the tenant's list, its device
 * user's list and its group's list, so they follow `device_user_reference` and `group`.
 */
export const deviceItemSchema = /* @__PURE__ */ onFirstUse(() => Device.extend({
  install_state: InstallState.optional(),
  // The ledger watermark (ledger-entry.ts readLedgerWatermark): read here too, so a write of the whole device (an
  // authentication) keeps it.
  ledger_covered_to: z.string().optional(),
  ledger_reported_at: z.string().optional(),
}));
export type DeviceItem = z.infer<ReturnType<typeof deviceItemSchema>>;

export function readDevice(item: TableItem): DeviceItem {
  return readItem('Device', deviceItemSchema(), item);
}

/**
 * Only who holds the device and in which group (legal hold coverage asks it for every recording processed, payload
 * registration copies both onto the recording): reads no other attribute, so it never fails on a part of the device
 * it does not need.
 */
export const deviceHolderItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({ device_user_reference: z.string().optional(), group: z.string().optional() }));
export type DeviceHolderItem = z.infer<ReturnType<typeof deviceHolderItemSchema>>;

export function readDeviceHolder(item: TableItem): DeviceHolderItem {
  return readItem('Device', deviceHolderItemSchema(), item);
}

/** The device's item: its attributes under its keys (the list keys of its holder and group when it has them). */
/** Only the device's own numbers, as authentication keeps them (processing adds them to a recording's all_numbers). */
export const deviceNumbersItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({ phone_numbers: z.array(DevicePhoneNumber).default([]) }));
export type DeviceNumbersItem = z.infer<ReturnType<typeof deviceNumbersItemSchema>>;

export function readDeviceNumbers(item: TableItem): DeviceNumbersItem {
  return readItem('Device', deviceNumbersItemSchema(), item);
}

export function deviceToItem(client: string, device: DeviceItem): TableItem {
  return { ...deviceKeys.item(client, device.device_reference, device.device_user_reference, device.group), ...device };
}

/** The device as the API answers it (the install state and the ledger watermark stay off the wire). */
export function toDevice(stored: DeviceItem): Device {
  const { install_state: _internal, ledger_covered_to: _covered, ledger_reported_at: _reported, ...device } = stored;
  return device;
}

/**
 * One holding period of a device (`deviceKeys.history`): who held it, in which group, from when (and until when,
 * once it ended). Stored as the contract shows it.
 */
export const deviceHistoryItemSchema = /* @__PURE__ */ onFirstUse(() => DeviceHistory);
export type DeviceHistoryItem = z.infer<ReturnType<typeof deviceHistoryItemSchema>>;

export function readDeviceHistory(item: TableItem): DeviceHistoryItem {
  return readItem('DeviceHistory', deviceHistoryItemSchema(), item);
}

export function toDeviceHistory(stored: DeviceHistoryItem): DeviceHistory {
  return stored;
}

/**
 * The device's place in the tenant's last-seen index (`deviceKeys.lastSeen`): a small item of its own, present only
 * while the device is active (lambdas/devices/deactivation.ts says why).
 */
export const deviceLastSeenItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({ client: z.string(), device_reference: z.string(), last_seen: z.string() }));
export type DeviceLastSeenItem = z.infer<ReturnType<typeof deviceLastSeenItemSchema>>;

export function readDeviceLastSeen(item: TableItem): DeviceLastSeenItem {
  return readItem('DeviceLastSeen', deviceLastSeenItemSchema(), item);
}

export function deviceLastSeenToItem(client: string, deviceReference: string, lastSeen: string): TableItem {
  return { ...deviceLastSeenKeys.lastSeen(client, deviceReference, lastSeen), client, device_reference: deviceReference, last_seen: lastSeen };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.device,
  title: 'Device',
  module: 'device.ts',
  indexes: DEVICE_INDEXES,
  items: [{ when: 'byDeviceUser while held, byGroup while in a group', example: () => deviceKeys.item(EXAMPLE_CLIENT, '<device_reference>', '<device_user_reference>', '<group>') }],
  accessPatterns: [
    { name: 'Get a device', serves: '`GET devices/{device_reference}`', builders: ['keys.device.key'], example: () => deviceKeys.key(EXAMPLE_CLIENT, '<device_reference>') },
    { name: 'List devices of a tenant', serves: '`GET devices`', builders: ['keys.device.list'], example: () => deviceKeys.list(EXAMPLE_CLIENT) },
    {
      name: 'List devices of a device user',
      serves: '`GET users/{device_user_reference}/devices`; the active holds a shown record falls under (`held_by`); what a device user\'s hold covers',
      builders: ['keys.device.listByDeviceUser'],
      example: () => deviceKeys.listByDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    { name: 'List devices of a group', serves: 'group stats, group-scoped lists', builders: ['keys.device.listByGroup'], example: () => deviceKeys.listByGroup(EXAMPLE_CLIENT, '<group>') },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceHistoryModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceHistory,
  title: 'Device history (one holding period)',
  module: 'device.ts',
  indexes: {},
  items: [{ example: () => deviceHistoryKeys.history(EXAMPLE_CLIENT, '<device_reference>', '<from>', '<id>') }],
  accessPatterns: [
    {
      name: 'A device\'s holding periods, oldest first',
      serves: '`GET devices/{device_reference}` (history)',
      builders: ['keys.device.partition', 'keys.device.historyPrefix'],
      example: () => ({ ...deviceKeys.partition(EXAMPLE_CLIENT, '<device_reference>'), sort: { beginsWith: deviceHistoryKeys.historyPrefix } }),
    },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceLastSeenModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceLastSeen,
  title: 'A device\'s place in the last-seen index, while it is active',
  module: 'device.ts',
  indexes: DEVICE_LAST_SEEN_INDEXES,
  items: [{ example: () => deviceLastSeenKeys.lastSeen(EXAMPLE_CLIENT, '<device_reference>', '<last_seen>') }],
  accessPatterns: [
    { name: 'Active devices not seen since a threshold, oldest first', serves: 'the inactivity job', builders: ['keys.device.listByLastSeen'], example: () => deviceLastSeenKeys.listByLastSeen(EXAMPLE_CLIENT) },
  ],
}));
