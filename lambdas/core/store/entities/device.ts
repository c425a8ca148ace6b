import * as z from 'zod';
import { InstallState } from '#shared/constants/devices.ts';
import { Device, DeviceHistory, DevicePhoneNumber } from '#shared/contract/entities/devices.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A device (`keys.device.item`): the contract's `Device` and what the store keeps off the wire, the install state of
 * its last authentication (docs/device-protocol.md). The item's index keys place it in the tenant's list, its device
 * user's list and its group's list, so they follow `device_user_reference` and `group`.
 */
export const DeviceItem = Device.extend({ install_state: InstallState.optional() });
export type DeviceItem = z.infer<typeof DeviceItem>;

export function readDevice(item: TableItem): DeviceItem {
  return readItem('Device', DeviceItem, item);
}

/**
 * Only who holds the device and in which group (legal hold coverage asks it for every recording processed, payload
 * registration copies both onto the recording): reads no other attribute, so it never fails on a part of the device
 * it does not need.
 */
export const DeviceHolderItem = z.object({ device_user_reference: z.string().optional(), group: z.string().optional() });
export type DeviceHolderItem = z.infer<typeof DeviceHolderItem>;

export function readDeviceHolder(item: TableItem): DeviceHolderItem {
  return readItem('Device', DeviceHolderItem, item);
}

/** The device's item: its attributes under its keys (the list keys of its holder and group when it has them). */
/** Only the device's own numbers, as authentication keeps them (processing adds them to a recording's all_numbers). */
export const DeviceNumbersItem = z.object({ phone_numbers: z.array(DevicePhoneNumber).default([]) });
export type DeviceNumbersItem = z.infer<typeof DeviceNumbersItem>;

export function readDeviceNumbers(item: TableItem): DeviceNumbersItem {
  return readItem('Device', DeviceNumbersItem, item);
}

export function deviceToItem(client: string, device: DeviceItem): TableItem {
  return { ...keys.device.item(client, device.device_reference, device.device_user_reference, device.group), ...device };
}

/** The device as the API answers it (the install state stays off the wire). */
export function toDevice(stored: DeviceItem): Device {
  const { install_state: _internal, ...device } = stored;
  return device;
}

/**
 * One holding period of a device (`keys.device.history`): who held it, in which group, from when (and until when,
 * once it ended). Stored as the contract shows it.
 */
export const DeviceHistoryItem = DeviceHistory;
export type DeviceHistoryItem = z.infer<typeof DeviceHistoryItem>;

export function readDeviceHistory(item: TableItem): DeviceHistoryItem {
  return readItem('DeviceHistory', DeviceHistoryItem, item);
}

export function toDeviceHistory(stored: DeviceHistoryItem): DeviceHistory {
  return stored;
}

/**
 * The device's place in the tenant's last-seen index (`keys.device.lastSeen`): a small item of its own, present only
 * while the device is active (lambdas/devices/deactivation.ts says why).
 */
export const DeviceLastSeenItem = z.object({ client: z.string(), device_reference: z.string(), last_seen: z.string() });
export type DeviceLastSeenItem = z.infer<typeof DeviceLastSeenItem>;

export function readDeviceLastSeen(item: TableItem): DeviceLastSeenItem {
  return readItem('DeviceLastSeen', DeviceLastSeenItem, item);
}

export function deviceLastSeenToItem(client: string, deviceReference: string, lastSeen: string): TableItem {
  return { ...keys.device.lastSeen(client, deviceReference, lastSeen), client, device_reference: deviceReference, last_seen: lastSeen };
}
