import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';
import { PENDING_POLL_MS, useCursorList, useEndpointMutation, useEndpointQuery } from '../../lib/api-hooks.ts';
import type { CallInput } from '../../lib/api-client.ts';
import { isMoving } from './migration-labels.ts';

/** `GET account/migration`: the switches the import runs with. */
export const getMigrationConfig = endpointOf(migrationEndpoints, 'client.account.migration.get');
/** `PUT account/migration`: replace the switches. */
export const putMigrationConfig = endpointOf(migrationEndpoints, 'client.account.migration.put');
/** `GET migrations`: the tenant's imports, newest first. */
export const listMigrations = endpointOf(migrationEndpoints, 'client.migrations.list');
/** `POST migrations`: a new Pending migration and the pre-signed URL its file goes to. */
export const submitMigration = endpointOf(migrationEndpoints, 'client.migrations.create');
/** `GET migrations/{migration_reference}`: one import with its progress, counters and summaries. */
export const getMigration = endpointOf(migrationEndpoints, 'client.migrations.get');
/** `POST migrations/{migration_reference}/start`: import the uploaded file, or resume an import that stopped. */
export const startMigration = endpointOf(migrationEndpoints, 'client.migrations.start');
/** `GET migrations/{migration_reference}/results`: the result of every row, page by page. */
export const listMigrationResults = endpointOf(migrationEndpoints, 'client.migrations.results');

export type MigrationListQuery = NonNullable<CallInput<typeof listMigrations>['query']>;
export type MigrationResultsQuery = NonNullable<CallInput<typeof listMigrationResults>['query']>;

const moving = (migration: Pick<LegacyMigration, 'migration_state'>) => isMoving(migration.migration_state);

/** The list, refreshed every few seconds while any loaded migration is still importing. */
export function useMigrations(query: MigrationListQuery) {
  return useCursorList(listMigrations, { query }, { pollWhile: moving, staleTime: 0 });
}

/** One migration, refreshed while it is still importing. */
export function useMigration(reference: string) {
  return useEndpointQuery(
    getMigration,
    { params: { migration_reference: reference } },
    { refetchInterval: (query) => (query.state.data !== undefined && moving(query.state.data) ? PENDING_POLL_MS : false), staleTime: 0 },
  );
}

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

export function useMigrationConfig(enabled: boolean) {
  return useEndpointQuery(getMigrationConfig, {}, { enabled });
}

export function useSaveMigrationConfig() {
  return useEndpointMutation(putMigrationConfig, { invalidates: [getMigrationConfig], formErrors: true });
}

export function useStartMigration() {
  return useEndpointMutation(startMigration, { invalidates: [listMigrations, getMigration], formErrors: true });
}
