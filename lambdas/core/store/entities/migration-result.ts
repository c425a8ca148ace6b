import * as z from 'zod';
import { MigrationResult } from '#shared/contract/entities/migrations.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { migrationsKeys } from '../keys/migrations.ts';
import { readItem } from './read-item.ts';

/**
 * One result of one row of a migration (`keys.migrationResult`), stored as the contract shows it with its tenant and
 * its place among the row's results (`index`, from 0).
 */
export const MigrationResultItem = MigrationResult.extend({ client: z.string(), index: z.int().min(0) });
export type MigrationResultItem = z.infer<typeof MigrationResultItem>;

export function readMigrationResult(item: TableItem): MigrationResultItem {
  return readItem('MigrationResult', MigrationResultItem, item);
}

export function migrationResultToItem(result: MigrationResultItem): TableItem {
  return {
    ...migrationsKeys.migrationResult.item(result.client, result.migration_reference, result.row, result.index, result.type, result.kind),
    ...result,
  };
}

/** The result as the API answers it. */
export function toMigrationResult(stored: MigrationResultItem): MigrationResult {
  const { client: _client, index: _index, ...shown } = stored;
  return shown;
}
