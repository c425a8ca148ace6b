import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named index: one device user's numbers. */
export const PHONE_NUMBER_INDEXES = { byDeviceUser: 'gsi1' } as const;

const byDeviceUserPartition = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#PHONE_NUMBERS`;

/**
 * Which device user a phone number belongs to (device authentication resolves the user by number). byDeviceUser lists
 * one device user's numbers (retention destroys them with the person); the item is rewritten whole when its number
 * moves to another user, so the index key moves with it. Items written before the index have no index key.
 */
export const phoneNumberKeys = {
  item: (client: string, phoneNumber: string, deviceUserReference?: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`,
    sk: 'PHONE',
    entity: ENTITY.phoneNumber,
    ...(deviceUserReference === undefined ? {} : onIndex[PHONE_NUMBER_INDEXES.byDeviceUser](byDeviceUserPartition(client, deviceUserReference), part(phoneNumber))),
  }),
  /** Primary key alone (get, delete). */
  key: (client: string, phoneNumber: string): ItemKey => ({ pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`, sk: 'PHONE' }),
  listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
    list(PHONE_NUMBER_INDEXES.byDeviceUser, byDeviceUserPartition(client, deviceUserReference)),
};

/**
 * Which device user a phone number belongs to (`keys.phoneNumber`): device authentication resolves the user of a
 * device it does not know yet by the numbers the phone reports. Written by the authentication that last saw the
 * number (with the device) or by an import (without). Every write puts the item whole with its gsi1 key (the device
 * user's numbers), so a number moved to another user leaves the first one's list.
 */
export const phoneNumberItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  phone_number: z.string(),
  device_user_reference: z.string(),
  device_reference: z.string().optional(),
  updated_at: z.string().optional(),
}));
export type PhoneNumberItem = z.infer<ReturnType<typeof phoneNumberItemSchema>>;

export function readPhoneNumber(item: TableItem): PhoneNumberItem {
  return readItem('PhoneNumber', phoneNumberItemSchema(), item);
}

export function phoneNumberToItem(client: string, entry: PhoneNumberItem): TableItem {
  return { ...phoneNumberKeys.item(client, entry.phone_number, entry.device_user_reference), ...entry };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const phoneNumberModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.phoneNumber,
  title: 'Phone number index (which device user a number belongs to)',
  module: 'phone-number.ts',
  indexes: PHONE_NUMBER_INDEXES,
  items: [{ when: 'byDeviceUser (items written before it have none)', example: () => phoneNumberKeys.item(EXAMPLE_CLIENT, '<number>', '<device_user_reference>') }],
  accessPatterns: [
    { name: 'The device user of a number', serves: 'device authentication', builders: ['keys.phoneNumber.key'], example: () => phoneNumberKeys.key(EXAMPLE_CLIENT, '<number>') },
    { name: 'A device user\'s numbers', serves: 'retention destroys them with the person', builders: ['keys.phoneNumber.listByDeviceUser'], example: () => phoneNumberKeys.listByDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>') },
  ],
}));
