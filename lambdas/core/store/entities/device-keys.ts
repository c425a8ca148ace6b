import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * The tenant's device keys (docs/device-protocol.md): one `CURRENT` item with the enrolment key and the device KEK,
 * both stored only wrapped under the tenant key; and one `KEK#<key_id>` item per KEK, so a payload's `key_id`
 * finds its KEK after a rotation.
 */
export const deviceKeysKeys = {
  current: (client: string): ItemKeys => ({ pk: `${tenantPrefix(client)}DEVICE_KEYS`, sk: 'CURRENT', entity: ENTITY.deviceKeys }),
  kek: (client: string, keyId: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}DEVICE_KEYS`,
    sk: `KEK#${part(keyId)}`,
    entity: ENTITY.deviceKeys,
  }),
};

/**
 * A tenant's device keys as stored (`deviceKeysKeys.current`, and one copy per KEK under `deviceKeysKeys.kek`):
 * only wrapped, under the tenant key of the key service, base64. What they are for: lambdas/device-crypto/device-keys.ts.
 */
export const deviceKeysItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  tenant_key_id: z.string().min(1),
  kek_id: z.string().min(1),
  wrapped_enrolment_key: z.string().min(1),
  wrapped_kek: z.string().min(1),
}));
export type DeviceKeysItem = z.infer<ReturnType<typeof deviceKeysItemSchema>>;

export function readDeviceKeys(item: TableItem): DeviceKeysItem {
  return readItem('DeviceKeys', deviceKeysItemSchema(), item);
}

/** The two items a first use writes together: the tenant's current keys, and the same keys under their KEK id. */
export function deviceKeysToItems(stored: DeviceKeysItem): { current: TableItem; byKek: TableItem } {
  return {
    current: { ...deviceKeysKeys.current(stored.client), ...stored },
    byKek: { ...deviceKeysKeys.kek(stored.client, stored.kek_id), ...stored },
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const deviceKeysModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceKeys,
  title: 'Device keys (the current keys; one item per KEK)',
  module: 'device-keys.ts',
  indexes: {},
  items: [
    { when: 'the current enrolment key and KEK', example: () => deviceKeysKeys.current(EXAMPLE_CLIENT) },
    { when: 'one KEK, by the key id a payload names', example: () => deviceKeysKeys.kek(EXAMPLE_CLIENT, '<key_id>') },
  ],
  accessPatterns: [],
}));
