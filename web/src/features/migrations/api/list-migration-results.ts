import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import type { MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { PENDING_POLL_MS, useCursorList } from '../../../lib/api-hooks.ts';

/** `GET migrations/{migration_reference}/results`: the result of every row, page by page. */
export const listMigrationResults = endpointOf(migrationEndpoints, 'client.migrations.results');

export type MigrationResultsQuery = NonNullable<CallInput<typeof listMigrationResults>['query']>;

/** A migration's row results, page by page, of one kind or one result type; refreshed while it imports. */
export function useMigrationResults(reference: string, filter: { kind?: MigrationResultKind; type?: MigrationResultType }, stillMoving: boolean) {
  return useCursorList(
    listMigrationResults,
    { params: { migration_reference: reference }, query: resultsQueryOf(filter) },
    { refetchInterval: stillMoving ? PENDING_POLL_MS : false, staleTime: 0 },
  );
}

/** The results query for a filter: unset filters are left out (the API's query is strict). */
export function resultsQueryOf(filter: { kind?: MigrationResultKind; type?: MigrationResultType }): MigrationResultsQuery {
  return { ...(filter.kind === undefined ? {} : { kind: filter.kind }), ...(filter.type === undefined ? {} : { type: filter.type }) };
}
