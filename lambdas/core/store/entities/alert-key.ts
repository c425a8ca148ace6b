import * as z from 'zod';
import { AlertScope } from '#shared/constants/alerts.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** The pointer of a Scoped key to its open (or last) alert, written in the same transaction as a new alert, with a condition, so racing raises make one alert. */
export const alertKeyKeys = {
  scopedKey: (client: string, scope: string, alertKey: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}ALERT_KEY#${part(scope)}#${part(alertKey)}`,
    sk: 'KEY',
    entity: ENTITY.alertKey,
  }),
};

/** The pointer of a Scoped alert key to its open (or last) alert: racing raises agree on one alert through it. */
export const alertKeyItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  alert_scope: AlertScope,
  alert_key: z.string(),
  alert_reference: z.string(),
}));
export type AlertKeyItem = z.infer<ReturnType<typeof alertKeyItemSchema>>;

export function readAlertKey(item: TableItem): AlertKeyItem {
  return readItem('AlertKey', alertKeyItemSchema(), item);
}

export function alertKeyToItem(client: string, pointer: AlertKeyItem): TableItem {
  return { ...alertKeyKeys.scopedKey(client, pointer.alert_scope, pointer.alert_key), ...pointer };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const alertKeyModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.alertKey,
  title: 'Scoped alert key (points to its open alert)',
  module: 'alert-key.ts',
  indexes: {},
  items: [{ example: () => alertKeyKeys.scopedKey(EXAMPLE_CLIENT, '<scope>', '<alert_key>') }],
  accessPatterns: [],
}));
