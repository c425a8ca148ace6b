import type { TenantCaller } from '#core/http/caller.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConflictError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { versionWrites } from '../audit/public.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { migrationConfigKey, migrationConfigToItem, readMigrationConfig } from '#core/store/entities/migration-config.ts';
import type { AccountMigrationConfig, AccountMigrationConfigRequest } from '#shared/contract/entities/account.ts';

/** The switches a tenant that never set them has: everything a legacy export holds is imported. */
const ALL_ON: AccountMigrationConfigRequest = { disable_onboarding: false, disable_offboarding: false, disable_payloads: false };

/** The account's migration switches, or all off (nothing disabled) when they were never set. */
export async function getMigrationConfig(deps: Pick<Dependencies, 'table'>, client: string): Promise<AccountMigrationConfig> {
  const item = await deps.table.get(migrationConfigKey(client), { consistent: true });
  return item === undefined ? { client, ...ALL_ON } : readMigrationConfig(item);
}

/** The switches alone, as an import keeps them for its whole run. */
export async function migrationSwitches(deps: Pick<Dependencies, 'table'>, client: string): Promise<AccountMigrationConfigRequest> {
  const { disable_onboarding, disable_offboarding, disable_payloads } = await getMigrationConfig(deps, client);
  return { disable_onboarding, disable_offboarding, disable_payloads };
}

export const MIGRATION_SETTINGS_CHANGED = 'The migration settings changed meanwhile; read them again and retry';

/**
 * Replaces the switches. An import already started keeps the switches it started with. The switches replaced are kept
 * as a version in the same transaction, which holds only while they are still the ones read.
 */
export async function putMigrationConfig(caller: TenantCaller, request: AccountMigrationConfigRequest): Promise<AccountMigrationConfig> {
  const { deps, tenant: client, principal } = caller;
  const config: AccountMigrationConfig = { client, ...request, updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal), updated_at: deps.clock.now().toISOString() };
  const stored = await deps.table.get(migrationConfigKey(client), { consistent: true });
  try {
    await deps.table.transactWrite([
      { kind: 'put', item: migrationConfigToItem(client, config), condition: stored === undefined ? { kind: 'item-not-exists' } : unchangedItem(stored) },
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'migration-settings', reference: client, stored, change: 'updated' }])),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(MIGRATION_SETTINGS_CHANGED);
    throw error;
  }
  return config;
}
