import * as z from 'zod';
import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A device user (`keys.deviceUser.item`), stored as the contract shows it, plus what the retention job wrote when it
 * disposed of an offboarded user (`retention_state` Deleted, or Destroyed with the personal fields gone; never shown
 * by the API). The item's index keys place it in the tenant's list and its group's list, so they follow `group`.
 */
export const DeviceUserItem = DeviceUser.extend({
  retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
  deleted_at: z.string().optional(),
  destroyed_at: z.string().optional(),
});
export type DeviceUserItem = z.infer<typeof DeviceUserItem>;

export function readDeviceUser(item: TableItem): DeviceUserItem {
  return readItem('DeviceUser', DeviceUserItem, item);
}

/** The user's item: its attributes under its keys (its group's list key when it has a group). */
export function deviceUserToItem(client: string, user: DeviceUserItem): TableItem {
  return { ...keys.deviceUser.item(client, user.device_user_reference, user.group), ...user };
}

/** The device user as the API answers it. */
export function toDeviceUser(stored: DeviceUserItem): DeviceUser {
  const { retention_state: _state, deleted_at: _deleted, destroyed_at: _destroyed, ...user } = stored;
  return user;
}
