import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { isMoving } from '../migration-labels.ts';

/** `GET migrations`: the tenant's imports, newest first. */
export const listMigrations = endpointOf(migrationEndpoints, 'client.migrations.list');

export type MigrationListQuery = NonNullable<CallInput<typeof listMigrations>['query']>;

/** A migration still importing: the list and its detail ask again while one is. */
export const migrationMoving = (migration: Pick<LegacyMigration, 'migration_state'>) => isMoving(migration.migration_state);

/** The list, refreshed every few seconds while any loaded migration is still importing. */
export function useMigrations(query: MigrationListQuery) {
  return useCursorList(listMigrations, { query }, { pollWhile: migrationMoving, staleTime: 0 });
}
