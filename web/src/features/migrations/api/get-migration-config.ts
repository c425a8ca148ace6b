import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET account/migration`: the switches the import runs with. */
export const getMigrationConfig = endpointOf(migrationEndpoints, 'client.account.migration.get');

export function useMigrationConfig(enabled: boolean) {
  return useEndpointQuery(getMigrationConfig, {}, { enabled });
}
