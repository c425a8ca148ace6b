import * as z from 'zod';
import { MigrationResult, MigrationResultEntity } from '#shared/contract/entities/migrations.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, onIndex, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Rows sort as text: ten digits hold any row count a file can have (and a few results per row). */
const ROW_DIGITS = 10;
const RESULT_DIGITS = 3;

/** `<row>#<n>`, zero-padded, so a migration's results read in row order and a row's results in the order given. */
export function resultSort(row: number, index: number): string {
  return `ROW#${String(row).padStart(ROW_DIGITS, '0')}#${String(index).padStart(RESULT_DIGITS, '0')}`;
}

/** Named indexes of a row result: its migration's results of one result type, of one kind. */
export const MIGRATION_RESULT_INDEXES = { byType: 'gsi1', byKind: 'gsi2' } as const;

const resultsPartition = (client: string, reference: string) => `${tenantPrefix(client)}MIGRATION#${part(reference)}#RESULTS`;
const byTypePartition = (client: string, reference: string, type: string) => `${resultsPartition(client, reference)}#TYPE#${part(type)}`;
const byKindPartition = (client: string, reference: string, kind: string) => `${resultsPartition(client, reference)}#KIND#${part(kind)}`;

/**
 * Each row result is its own item in its migration's results partition (a 100,000-row import makes 100,000 small
 * items, never one big one), in row order; byType holds them by result type and byKind by kind (success, warning,
 * error), so each filter is one Query in row order too.
 */
export const migrationResultKeys = {
  item: (client: string, reference: string, { row, index, type, kind }: { row: number; index: number; type: string; kind: string }): ItemKeys => {
    const sort = resultSort(row, index);
    return {
      pk: resultsPartition(client, reference),
      sk: sort,
      entity: ENTITY.migrationResult,
      ...onIndex[MIGRATION_RESULT_INDEXES.byType](byTypePartition(client, reference, type), sort),
      ...onIndex[MIGRATION_RESULT_INDEXES.byKind](byKindPartition(client, reference, kind), sort),
    };
  },
  /** Every result of the migration, in row order. */
  list: (client: string, reference: string): ListKey => ({ partition: resultsPartition(client, reference) }),
  byType: (client: string, reference: string, type: string): ListKey => ({ index: MIGRATION_RESULT_INDEXES.byType, partition: byTypePartition(client, reference, type) }),
  byKind: (client: string, reference: string, kind: string): ListKey => ({ index: MIGRATION_RESULT_INDEXES.byKind, partition: byKindPartition(client, reference, kind) }),
};

/**
 * One result of one row of a migration (`keys.migrationResult`), stored as the contract shows it with its tenant and
 * its place among the row's results (`index`, from 0). The contract's `entity` (what the row is about) is stored as
 * `result_entity`: `entity` is every item's entity tag.
 */
export const migrationResultItemSchema = /* @__PURE__ */ onFirstUse(() => MigrationResult.omit({ entity: true }).extend({
  client: z.string(),
  index: z.int().min(0),
  result_entity: MigrationResultEntity.optional(),
}));
export type MigrationResultItem = z.infer<ReturnType<typeof migrationResultItemSchema>>;

export function readMigrationResult(item: TableItem): MigrationResultItem {
  return readItem('MigrationResult', migrationResultItemSchema(), item);
}

export function migrationResultToItem(result: MigrationResultItem): TableItem {
  return {
    ...result,
    ...migrationResultKeys.item(result.client, result.migration_reference, result),
  };
}

/** The result as the API answers it. */
export function toMigrationResult(stored: MigrationResultItem): MigrationResult {
  const { client: _client, index: _index, result_entity: entity, ...shown } = stored;
  return { ...shown, ...(entity === undefined ? {} : { entity }) };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const migrationResultModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.migrationResult,
  title: 'Migration row result, one per result of a row',
  module: 'migration-result.ts',
  indexes: MIGRATION_RESULT_INDEXES,
  items: [{ example: () => migrationResultKeys.item(EXAMPLE_CLIENT, '<migration_reference>', { row: 1, index: 0, type: '<type>', kind: '<kind>' }) }],
  accessPatterns: [
    { name: 'A migration\'s row results in row order', serves: '`GET migrations/{ref}/results`; retention destroys them', builders: ['keys.migrationResult.list'], example: () => migrationResultKeys.list(EXAMPLE_CLIENT, '<migration_reference>') },
    { name: 'Its results of one type', serves: '`GET migrations/{ref}/results?type=`', builders: ['keys.migrationResult.byType'], example: () => migrationResultKeys.byType(EXAMPLE_CLIENT, '<migration_reference>', '<type>') },
    { name: 'Its results of one kind', serves: '`GET migrations/{ref}/results?kind=`', builders: ['keys.migrationResult.byKind'], example: () => migrationResultKeys.byKind(EXAMPLE_CLIENT, '<migration_reference>', '<kind>') },
  ],
}));
