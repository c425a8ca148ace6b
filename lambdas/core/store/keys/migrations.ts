import { encodeTime } from 'ulid';
import type { ItemKey, QuerySpec } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';

/** Rows sort as text: ten digits hold any row count a file can have (and a few results per row). */
const ROW_DIGITS = 10;
const RESULT_DIGITS = 3;

/** `<row>#<n>`, zero-padded, so a migration's results read in row order and a row's results in the order given. */
export function resultSort(row: number, index: number): string {
  return `ROW#${String(row).padStart(ROW_DIGITS, '0')}#${String(index).padStart(RESULT_DIGITS, '0')}`;
}

const migrationsPartition = (client: string) => `${tenantPrefix(client)}MIGRATIONS`;
const resultsPartition = (client: string, reference: string) => `${tenantPrefix(client)}MIGRATION#${part(reference)}#RESULTS`;

/**
 * Legacy migrations (lambdas/migrations). A tenant's migrations share one partition by ULID, so the list is one Query,
 * newest first, and a submission-time range is a ULID range. Each row result is its own item in its migration's
 * results partition (a 100,000-row import makes 100,000 small items, never one big one), in row order; gsi1 holds
 * them by result type and gsi2 by kind (success, warning, error), so each filter is one Query in row order too.
 */
export const migrationsKeys = {
  migration: {
    item: (client: string, reference: string): ItemKeys => ({ ...migrationsKeys.migration.key(client, reference), entity: ENTITY.migration }),
    key: (client: string, reference: string): ItemKey => ({ pk: migrationsPartition(client), sk: `MIGRATION#${part(reference)}` }),
    /** The tenant's migrations, narrowed to those submitted between two instants (epoch milliseconds) when given. */
    list: (client: string, submitted?: { from: number; to: number }): Pick<QuerySpec, 'partition' | 'sort'> =>
      submitted === undefined
        ? { partition: migrationsPartition(client), sort: { beginsWith: 'MIGRATION#' } }
        : // A ULID starts with its time, so the range of times is the range of ULIDs between the two times' prefixes.
          {
            partition: migrationsPartition(client),
            sort: { between: [`MIGRATION#${encodeTime(submitted.from, 10)}`, `MIGRATION#${encodeTime(submitted.to, 10)}~`] },
          },
  },
  migrationResult: {
    item: (client: string, reference: string, row: number, index: number, type: string, kind: string): ItemKeys => {
      const sort = resultSort(row, index);
      return {
        pk: resultsPartition(client, reference),
        sk: sort,
        entity: ENTITY.migrationResult,
        gsi1pk: `${resultsPartition(client, reference)}#TYPE#${part(type)}`,
        gsi1sk: sort,
        gsi2pk: `${resultsPartition(client, reference)}#KIND#${part(kind)}`,
        gsi2sk: sort,
      };
    },
    /** Every result of the migration, in row order. */
    list: (client: string, reference: string): ListKey => ({ partition: resultsPartition(client, reference) }),
    byType: (client: string, reference: string, type: string): ListKey => ({
      index: 'gsi1',
      partition: `${resultsPartition(client, reference)}#TYPE#${part(type)}`,
    }),
    byKind: (client: string, reference: string, kind: string): ListKey => ({
      index: 'gsi2',
      partition: `${resultsPartition(client, reference)}#KIND#${part(kind)}`,
    }),
  },
};

/** The raw-bucket object a migration's export file is uploaded to (never a payload key: processing skips it). */
export function migrationObjectKey(client: string, reference: string): string {
  tenantPrefix(client); // refuses anything but a client slug, as every key does
  return `${client}/migrations/${encodeURIComponent(reference)}`;
}
