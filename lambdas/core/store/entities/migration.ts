import { encodeTime } from 'ulid';
import * as z from 'zod';
import { MigrationErrorType, MigrationSuccessType, MigrationWarningType } from '#shared/constants/account.ts';
import { AccountMigrationConfigRequest } from '#shared/contract/entities/account.ts';
import { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { MigrationResultKind } from '#shared/contract/entities/migrations.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, QuerySpec, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const migrationsPartition = (client: string) => `${tenantPrefix(client)}MIGRATIONS`;
const MIGRATION_PREFIX = 'MIGRATION#';

/**
 * Legacy migrations (lambdas/migrations). A tenant's migrations share one partition by ULID, so the list is one Query,
 * newest first, and a submission-time range is a ULID range (the row results: migration-result.ts).
 */
export const migrationKeys = {
  item: (client: string, reference: string): ItemKeys => ({ ...migrationKeys.key(client, reference), entity: ENTITY.migration }),
  key: (client: string, reference: string): ItemKey => ({ pk: migrationsPartition(client), sk: `${MIGRATION_PREFIX}${part(reference)}` }),
  /** Every migration of the tenant, in ULID order. */
  all: (client: string): ListKey => ({ partition: migrationsPartition(client), sort: { beginsWith: MIGRATION_PREFIX } }),
  /** The tenant's migrations, narrowed to those submitted between two instants (epoch milliseconds) when given. */
  list: (client: string, submitted?: { from: number; to: number }): Pick<QuerySpec, 'partition' | 'sort'> =>
    submitted === undefined
      ? migrationKeys.all(client)
      : // A ULID starts with its time, so the range of times is the range of ULIDs between the two times' prefixes.
        {
          partition: migrationsPartition(client),
          sort: { between: [`${MIGRATION_PREFIX}${encodeTime(submitted.from, 10)}`, `${MIGRATION_PREFIX}${encodeTime(submitted.to, 10)}~`] },
        },
};

/** The raw-bucket object a migration's export file is uploaded to (never a payload key: processing skips it). */
export function migrationObjectKey(client: string, reference: string): string {
  tenantPrefix(client); // refuses anything but a client slug, as every key does
  return `${client}/migrations/${encodeURIComponent(reference)}`;
}

/** One result type's tally: how many results gave it, and the first one's reference and message (for the summary). */
export const resultTallySchema = /* @__PURE__ */ onFirstUse(() => z.object({
  kind: MigrationResultKind,
  count: z.int().min(0),
  reference: z.string().optional(),
  message: z.string().optional(),
}));
export type ResultTally = z.infer<ReturnType<typeof resultTallySchema>>;

/**
 * A legacy migration (`keys.migration`): the contract's LegacyMigration plus what only the import keeps. The row
 * results are items of their own (./migration-result.ts); this item holds their tallies per result type, from which the
 * contract's summaries (import_errors, import_warnings, imported) are made, and the checkpoint: the last row whose
 * results are all written. Results and checkpoint are written in one transaction, so a resumed import starts after
 * exactly the rows already resulted.
 */
export const migrationItemSchema = /* @__PURE__ */ onFirstUse(() => LegacyMigration.omit({ import_errors: true, import_warnings: true, imported: true }).extend({
  client: z.string(),
  /** The export file in the raw bucket (`<client>/migrations/<reference>`). */
  object_key: z.string(),
  /** The size the submission declared; the upload must match it. */
  size_bytes: z.int().min(1),
  /** The account switches as they stood when the import first started: a resumed import keeps to them. */
  settings: AccountMigrationConfigRequest.optional(),
  /** The ETag of the file the import took up: a file replaced afterwards (same size, other bytes) is refused. */
  object_etag: z.string().optional(),
  /** When the malware scan found the file clean (a resumed import does not scan again). */
  scanned_at: z.string().optional(),
  /** Rows 1..checkpoint_row have every result written. */
  checkpoint_row: z.int().min(0).default(0),
  /** Invocations of the import job so far (a resumed import is a further one). */
  invocations: z.int().min(0).default(0),
  tallies: z.record(z.string(), resultTallySchema()).default({}),
}));
export type MigrationItem = z.infer<ReturnType<typeof migrationItemSchema>>;

export function readMigration(item: TableItem): MigrationItem {
  return readItem('Migration', migrationItemSchema(), item);
}

export function migrationToItem(migration: MigrationItem): TableItem {
  return { ...migrationKeys.item(migration.client, migration.migration_reference), ...migration };
}

const errorTypes = /* @__PURE__ */ onFirstUse(() => new Set<string>(MigrationErrorType.options));
const warningTypes = /* @__PURE__ */ onFirstUse(() => new Set<string>(MigrationWarningType.options));
const successTypes = /* @__PURE__ */ onFirstUse(() => new Set<string>(MigrationSuccessType.options));

/** The tallies of one set of types, as the contract's summaries: one entry per type, most frequent first. */
function summaries<T extends string>(tallies: Record<string, ResultTally>, types: Set<string>) {
  return Object.entries(tallies)
    .filter(([type]) => types.has(type))
    .sort(([a, left], [b, right]) => right.count - left.count || a.localeCompare(b))
    .map(([type, tally]) => ({
      type: type as T,
      count: tally.count,
      ...(tally.reference === undefined ? {} : { reference: tally.reference }),
      ...(tally.message === undefined ? {} : { message: tally.message }),
    }));
}

/** The migration as the API answers it. */
export function toLegacyMigration(stored: MigrationItem): LegacyMigration {
  const {
    client: _client,
    object_key: _objectKey,
    size_bytes: _size,
    settings: _settings,
    scanned_at: _scannedAt,
    object_etag: _etag,
    checkpoint_row: _checkpoint,
    invocations: _invocations,
    tallies,
    ...shown
  } = stored;
  return {
    ...shown,
    import_errors: summaries<MigrationErrorType>(tallies, errorTypes()),
    import_warnings: summaries<MigrationWarningType>(tallies, warningTypes()),
    imported: summaries<MigrationSuccessType>(tallies, successTypes()),
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const migrationModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.migration,
  title: 'Legacy migration',
  module: 'migration.ts',
  indexes: {},
  items: [{ example: () => migrationKeys.item(EXAMPLE_CLIENT, '<migration_reference>') }],
  accessPatterns: [
    {
      name: 'Get a migration',
      serves: '`GET migrations/{ref}`, `POST migrations/{ref}/start`, the import job (consistent)',
      builders: ['keys.migration.key'],
      example: () => migrationKeys.key(EXAMPLE_CLIENT, '<migration_reference>'),
    },
    {
      name: 'List migrations, newest first',
      serves: '`GET migrations` (from/to: a sort-key range of ULID bounds; `migration_state` filters); the retention backfill',
      builders: ['keys.migration.list', 'keys.migration.all'],
      example: () => migrationKeys.all(EXAMPLE_CLIENT),
    },
  ],
}));
