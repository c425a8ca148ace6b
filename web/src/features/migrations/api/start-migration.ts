import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getMigration } from './get-migration.ts';
import { listMigrations } from './list-migrations.ts';

/** `POST migrations/{migration_reference}/start`: import the uploaded file, or resume an import that stopped. */
export const startMigration = endpointOf(migrationEndpoints, 'client.migrations.start');

export function useStartMigration() {
  return useEndpointMutation(startMigration, { invalidates: [listMigrations, getMigration], formErrors: true });
}
