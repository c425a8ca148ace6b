import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A tenant's device keys as stored (`keys.deviceKeys.current`, and one copy per KEK under `keys.deviceKeys.kek`):
 * only wrapped, under the tenant key of the key service, base64. What they are for: lambdas/device-crypto/device-keys.ts.
 */
export const DeviceKeysItem = z.object({
  client: z.string(),
  tenant_key_id: z.string().min(1),
  kek_id: z.string().min(1),
  wrapped_enrolment_key: z.string().min(1),
  wrapped_kek: z.string().min(1),
});
export type DeviceKeysItem = z.infer<typeof DeviceKeysItem>;

export function readDeviceKeys(item: TableItem): DeviceKeysItem {
  return readItem('DeviceKeys', DeviceKeysItem, item);
}

/** The two items a first use writes together: the tenant's current keys, and the same keys under their KEK id. */
export function deviceKeysToItems(stored: DeviceKeysItem): { current: TableItem; byKek: TableItem } {
  return {
    current: { ...keys.deviceKeys.current(stored.client), ...stored },
    byKek: { ...keys.deviceKeys.kek(stored.client, stored.kek_id), ...stored },
  };
}
