import type * as z from 'zod';
import { AccountMigrationConfig } from '#shared/contract/entities/account.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY } from '../key-parts.ts';
import { accountKeys } from './account.ts';
import { readItem } from './read-item.ts';

/**
 * The account's legacy migration switches (spec point 3: disable_onboarding, disable_offboarding, disable_payloads):
 * one account setting item, `MIGRATION`, stored as the contract shows it. A tenant that never set them has no item and
 * reads all three off (lambdas/migrations/settings.ts).
 */
export const MIGRATION_SETTING = 'MIGRATION';

export const migrationConfigItemSchema = /* @__PURE__ */ onFirstUse(() => AccountMigrationConfig);
export type MigrationConfigItem = z.infer<ReturnType<typeof migrationConfigItemSchema>>;

export const migrationConfigKey = (client: string): ItemKey => accountKeys.setting(client, MIGRATION_SETTING);

export function readMigrationConfig(item: TableItem): MigrationConfigItem {
  return readItem('AccountMigrationConfig', migrationConfigItemSchema(), item);
}

/** The setting's item: the switches under the setting key, tagged as an account item and named by `setting`. */
export function migrationConfigToItem(client: string, config: MigrationConfigItem): TableItem {
  return { ...migrationConfigKey(client), entity: ENTITY.account, setting: MIGRATION_SETTING, ...config };
}
