import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { PENDING_POLL_MS, useEndpointQuery } from '../../../lib/api-hooks.ts';
import { migrationMoving } from './list-migrations.ts';

/** `GET migrations/{migration_reference}`: one import with its progress, counters and summaries. */
export const getMigration = endpointOf(migrationEndpoints, 'client.migrations.get');

/** One migration, refreshed while it is still importing. */
export function useMigration(reference: string) {
  return useEndpointQuery(
    getMigration,
    { params: { migration_reference: reference } },
    { refetchInterval: (query) => (query.state.data !== undefined && migrationMoving(query.state.data) ? PENDING_POLL_MS : false), staleTime: 0 },
  );
}
