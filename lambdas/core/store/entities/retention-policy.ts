import type * as z from 'zod';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY } from '../key-parts.ts';
import { accountKeys } from './account.ts';
import { readItem } from './read-item.ts';

/**
 * The tenant's retention policy (spec point 3: per record type, delete_after_days or destroy_after_days; PayloadData
 * per payload type): one account setting item, `RETENTION`, stored as the contract shows it, always complete (the
 * service fills every record type and payload type before it writes). A tenant that never set one has no item and
 * reads the defaults (lambdas/account-data/retention/retention-defaults.ts).
 */
export const RETENTION_SETTING = 'RETENTION';

export const retentionPolicyItemSchema = /* @__PURE__ */ onFirstUse(() => RetentionPolicy);
export type RetentionPolicyItem = z.infer<ReturnType<typeof retentionPolicyItemSchema>>;

export const retentionPolicyKey = (client: string): ItemKey => accountKeys.setting(client, RETENTION_SETTING);

export function readRetentionPolicy(item: TableItem): RetentionPolicyItem {
  return readItem('RetentionPolicy', retentionPolicyItemSchema(), item);
}

/** The setting's item: the policy under the setting key, tagged as an account item and named by `setting`. */
export function retentionPolicyToItem(client: string, policy: RetentionPolicyItem): TableItem {
  return { ...retentionPolicyKey(client), entity: ENTITY.account, setting: RETENTION_SETTING, ...policy };
}

/** The policy as the API answers it. */
export function toRetentionPolicy(stored: RetentionPolicyItem): RetentionPolicy {
  return stored;
}
