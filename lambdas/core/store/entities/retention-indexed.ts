import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY } from '../key-parts.ts';
import { accountKeys } from './account.ts';
import { readItem } from './read-item.ts';

/**
 * How far the retention job has indexed the audit trails (whose records get their due markers from the job, not
 * from the call that writes them): one account setting, `RETENTION_INDEXED`, with the last activity time per trail.
 */
export const retentionIndexedKey = (client: string): ItemKey => accountKeys.setting(client, RETENTION_INDEXED_SETTING);

/** The account setting's name. */
export const RETENTION_INDEXED_SETTING = 'RETENTION_INDEXED';

/**
 * How far the retention job has put due markers for a tenant's audit trails (`keys.retentionIndexed`,
 * lambdas/account-data/retention/due-backfill.ts): per trail, the latest activity time indexed, so the next run starts
 * near there. An account setting, rewritten whole page by page.
 */
export const retentionIndexedItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  positions: z.record(z.string(), z.string()).default({}),
  updated_at: z.string().optional(),
}));
export type RetentionIndexedItem = z.infer<ReturnType<typeof retentionIndexedItemSchema>>;

export function readRetentionIndexed(item: TableItem): RetentionIndexedItem {
  return readItem('RetentionIndexed', retentionIndexedItemSchema(), item);
}

/** The setting's item: under its key, tagged as an account item and named by `setting`. */
export function retentionIndexedToItem(indexed: RetentionIndexedItem): TableItem {
  return { ...retentionIndexedKey(indexed.client), entity: ENTITY.account, setting: RETENTION_INDEXED_SETTING, ...indexed };
}
