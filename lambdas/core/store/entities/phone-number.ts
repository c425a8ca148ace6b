import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * Which device user a phone number belongs to (`keys.phoneNumber`): device authentication resolves the user of a
 * device it does not know yet by the numbers the phone reports. Written by the authentication that last saw the
 * number (with the device) or by an import (without). Every write puts the item whole with its gsi1 key (the device
 * user's numbers), so a number moved to another user leaves the first one's list.
 */
export const PhoneNumberItem = z.object({
  client: z.string().optional(),
  phone_number: z.string(),
  device_user_reference: z.string(),
  device_reference: z.string().optional(),
  updated_at: z.string().optional(),
});
export type PhoneNumberItem = z.infer<typeof PhoneNumberItem>;

export function readPhoneNumber(item: TableItem): PhoneNumberItem {
  return readItem('PhoneNumber', PhoneNumberItem, item);
}

export function phoneNumberToItem(client: string, entry: PhoneNumberItem): TableItem {
  return { ...keys.phoneNumber.item(client, entry.phone_number, entry.device_user_reference), ...entry };
}
