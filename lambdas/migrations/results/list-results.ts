import type { TenantCaller } from '#core/http/caller.ts';
import { readMigrationResult, toMigrationResult } from '#core/store/entities/migration-result.ts';
import { keys } from '#core/store/keys.ts';
import { pageOf } from '#core/store/paging.ts';
import type { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import type { QueryOf } from '#core/store/paging.ts';
import { loadMigration } from '../submission.ts';
import { kindOfType } from './result-kinds.ts';

type ResultsQuery = QueryOf<typeof migrationEndpoints, 'client.migrations.results'>;

/**
 * A migration's row results in row order, all of them, or of one result type (gsi1) or one kind (gsi2): each one Query.
 * The total is the migration's own tally, kept as the results were written, so counting a 100,000-row import reads
 * one item. A type of another kind than `kind` asks for nothing, so it is an empty list.
 */
export async function listMigrationResults(caller: TenantCaller, reference: string, query: ResultsQuery) {
  const { deps, tenant: client } = caller;
  const migration = await loadMigration(deps, client, reference);
  const { type, kind } = query;
  const contradictory = type !== undefined && kind !== undefined && kindOfType(type) !== kind;
  if (query.result_type === 'total') {
    if (contradictory) return { count: 0 };
    if (type !== undefined) return { count: migration.tallies[type]?.count ?? 0 };
    if (kind !== undefined) return { count: Object.values(migration.tallies).reduce((sum, tally) => sum + (tally.kind === kind ? tally.count : 0), 0) };
    return { count: Object.values(migration.tallies).reduce((sum, tally) => sum + tally.count, 0) };
  }
  if (contradictory) return { count: 0, data: [] };
  const list =
    type !== undefined
      ? keys.migrationResult.byType(client, reference, type)
      : kind !== undefined
        ? keys.migrationResult.byKind(client, reference, kind)
        : keys.migrationResult.list(client, reference);
  return pageOf(deps, {
    client,
    query: list,
    filters: { migration_reference: reference, type, kind },
    page: query,
    toData: (item) => toMigrationResult(readMigrationResult(item)),
  });
}
