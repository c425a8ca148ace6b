import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { readItem } from './read-item.ts';

/**
 * A tenant's account item (`keys.account.item`): the client, its display name, and on tenants created before the
 * defaults setting existed, the legacy `account_defaults` (free-form: account-defaults.ts reads it field by field).
 */
export const AccountItem = z.object({
  client: z.string(),
  display_name: z.string().optional(),
  created_at: z.string().optional(),
  /** Shown on the internal client list when the item has it. */
  is_active: z.boolean().optional(),
  updated_at: z.string().optional(),
  updated_by: z.string().optional(),
  account_defaults: z.unknown().optional(),
  /**
   * Since when every Processed payload of the tenant carries its byProcessedAt keys: written with a new tenant's
   * account (nothing of it predates the index) and by the `processed-index-backfill` job once it has walked an older
   * tenant's payloads. Until then a transfer's selection reads the tenant's whole list instead of the index
   * (lambdas/transfers/job/selection.ts): slower, never short of a recording processed before the index was written.
   */
  processed_indexed_at: z.string().optional(),
});
export type AccountItem = z.infer<typeof AccountItem>;

export function readAccount(item: TableItem): AccountItem {
  return readItem('Account', AccountItem, item);
}
