import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getMigrationConfig } from './get-migration-config.ts';

/** `PUT account/migration`: replace the switches. */
export const putMigrationConfig = endpointOf(migrationEndpoints, 'client.account.migration.put');

export function useSaveMigrationConfig() {
  return useEndpointMutation(putMigrationConfig, { invalidates: [getMigrationConfig], formErrors: true });
}
