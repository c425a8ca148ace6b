import * as z from 'zod';
import { MigrationResult, MigrationResultEntity } from '#shared/contract/entities/migrations.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { migrationsKeys } from '../keys/migrations.ts';
import { readItem } from './read-item.ts';

/**
 * One result of one row of a migration (`keys.migrationResult`), stored as the contract shows it with its tenant and
 * its place among the row's results (`index`, from 0). The contract's `entity` (what the row is about) is stored as
 * `result_entity`: `entity` is every item's entity tag.
 */
export const MigrationResultItem = MigrationResult.omit({ entity: true }).extend({
  client: z.string(),
  index: z.int().min(0),
  result_entity: MigrationResultEntity.optional(),
});
export type MigrationResultItem = z.infer<typeof MigrationResultItem>;

export function readMigrationResult(item: TableItem): MigrationResultItem {
  return readItem('MigrationResult', MigrationResultItem, item);
}

export function migrationResultToItem(result: MigrationResultItem): TableItem {
  return {
    ...result,
    ...migrationsKeys.migrationResult.item(result.client, result.migration_reference, result.row, result.index, result.type, result.kind),
  };
}

/** The result as the API answers it. */
export function toMigrationResult(stored: MigrationResultItem): MigrationResult {
  const { client: _client, index: _index, result_entity: entity, ...shown } = stored;
  return { ...shown, ...(entity === undefined ? {} : { entity }) };
}
