import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { keys } from '#core/store/keys.ts';
import type { QuerySpec } from '#core/ports/table-store.ts';
import { markDeleted, markDestroyed, type RecordChanges } from './shared.ts';

/**
 * LegacyMigrationData: one finished legacy migration (Migrated, PartialFail, Failed, Quarantined) with its row
 * results (up to one item per row and result: 100,000 and more) and its uploaded export file. It counts from its end
 * (`migrated_at`); a Pending migration is never due. The recordings and device users it brought in are records of
 * their own types. Deleted marks the migration (out of the migrations list); Destroyed marks it Destroyed in the
 * disposal's transaction, then its results go a page at a time across job invocations, then its export file, and the
 * migration's item last (bulk-purge.ts).
 */
export function migrationEnded(migration: RetainedItemOf<'Migration'>): boolean {
  return migration.migration_state !== undefined && migration.migration_state !== 'Pending' && migration.migrated_at !== undefined;
}

/** The migration's results partition (its gsi1 and gsi2 entries go with the items). */
export function migrationParts(client: string, reference: string): QuerySpec {
  return { partition: keys.migrationResult.list(client, reference).partition };
}

export const migrationChanges: RecordChanges = {
  ended: (item) => migrationEnded(readRetainedAs('Migration', item)),
  change: (_deps, _client, item, { action, condition, disposal }) => [action === 'Deleted' ? markDeleted(item, condition, disposal) : markDestroyed(item, condition, disposal)],
};
