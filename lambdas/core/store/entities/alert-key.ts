import * as z from 'zod';
import { AlertScope } from '#shared/constants/alerts.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/** The pointer of a Scoped alert key to its open (or last) alert: racing raises agree on one alert through it. */
export const AlertKeyItem = z.object({
  client: z.string().optional(),
  alert_scope: AlertScope,
  alert_key: z.string(),
  alert_reference: z.string(),
});
export type AlertKeyItem = z.infer<typeof AlertKeyItem>;

export function readAlertKey(item: TableItem): AlertKeyItem {
  return readItem('AlertKey', AlertKeyItem, item);
}

export function alertKeyToItem(client: string, pointer: AlertKeyItem): TableItem {
  return { ...keys.alert.scopedKey(client, pointer.alert_scope, pointer.alert_key), ...pointer };
}
