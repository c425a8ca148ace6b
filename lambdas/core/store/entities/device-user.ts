import * as z from 'zod';
import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes of a device user: the tenant's device users, a group's. */
export const DEVICE_USER_INDEXES = { byTenant: 'gsi1', byGroup: 'gsi3' } as const;

const deviceUserPartition = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}`;

export const deviceUserKeys = {
  item: (client: string, deviceUserReference: string, group?: string): ItemKeys => ({
    pk: deviceUserPartition(client, deviceUserReference),
    sk: 'DEVICE_USER',
    entity: ENTITY.deviceUser,
    ...onIndex[DEVICE_USER_INDEXES.byTenant](`${tenantPrefix(client)}DEVICE_USERS`, part(deviceUserReference)),
    ...(group === undefined
      ? {}
      : onIndex[DEVICE_USER_INDEXES.byGroup](`${tenantPrefix(client)}GROUP#${part(group)}#DEVICE_USERS`, part(deviceUserReference))),
  }),
  list: (client: string): ListKey => list(DEVICE_USER_INDEXES.byTenant, `${tenantPrefix(client)}DEVICE_USERS`),
  listByGroup: (client: string, group: string): ListKey => list(DEVICE_USER_INDEXES.byGroup, `${tenantPrefix(client)}GROUP#${part(group)}#DEVICE_USERS`),
  /** Primary key alone (get, update) when the list keys are not needed. */
  key: (client: string, deviceUserReference: string): ItemKey => ({ pk: deviceUserPartition(client, deviceUserReference), sk: 'DEVICE_USER' }),
};

/**
 * A device user (`deviceUserKeys.item`), stored as the contract shows it, plus what the retention job wrote when it
 * disposed of an offboarded user (`retention_state` Deleted, or Destroyed with the personal fields gone; never shown
 * by the API). The item's index keys place it in the tenant's list and its group's list, so they follow `group`.
 */
export const deviceUserItemSchema = /* @__PURE__ */ onFirstUse(() => DeviceUser.extend({
  retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
  deleted_at: z.string().optional(),
  destroyed_at: z.string().optional(),
}));
export type DeviceUserItem = z.infer<ReturnType<typeof deviceUserItemSchema>>;

export function readDeviceUser(item: TableItem): DeviceUserItem {
  return readItem('DeviceUser', deviceUserItemSchema(), item);
}

/** The user's item: its attributes under its keys (its group's list key when it has a group). */
export function deviceUserToItem(client: string, user: DeviceUserItem): TableItem {
  return { ...deviceUserKeys.item(client, user.device_user_reference, user.group), ...user };
}

/** The device user as the API answers it. */
export function toDeviceUser(stored: DeviceUserItem): DeviceUser {
  const { retention_state: _state, deleted_at: _deleted, destroyed_at: _destroyed, ...user } = stored;
  return user;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceUserModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceUser,
  title: 'Device user',
  module: 'device-user.ts',
  indexes: DEVICE_USER_INDEXES,
  items: [{ when: 'byGroup while in a group', example: () => deviceUserKeys.item(EXAMPLE_CLIENT, '<device_user_reference>', '<group>') }],
  accessPatterns: [
    { name: 'Get a device user', serves: '`users/{device_user_reference}`', builders: ['keys.deviceUser.key'], example: () => deviceUserKeys.key(EXAMPLE_CLIENT, '<device_user_reference>') },
    { name: 'List device users', serves: '`GET users`', builders: ['keys.deviceUser.list'], example: () => deviceUserKeys.list(EXAMPLE_CLIENT) },
    { name: 'List device users of a group', serves: 'group stats', builders: ['keys.deviceUser.listByGroup'], example: () => deviceUserKeys.listByGroup(EXAMPLE_CLIENT, '<group>') },
  ],
}));
