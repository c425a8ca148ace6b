import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { PENDING_POLL_MS, sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { migrationMoving } from './list-migrations.ts';

/** `GET migrations/{migration_reference}`: one import with its progress, counters and summaries. */
export const getMigration = endpointOf(migrationEndpoints, 'client.migrations.get');

export function migrationQueryOptions(session: Session, reference: string) {
  return sessionQueryOptions(session, getMigration, { params: { migration_reference: reference } });
}

/**
 * One migration, refreshed while it is still importing: the one its route's loader ensured (ensureQueryData with the
 * same options); suspends while it is not there.
 */
export function useMigration(reference: string) {
  const { session } = useSession();
  return useSuspenseQuery({
    ...migrationQueryOptions(session, reference),
    refetchInterval: (query) => (query.state.data !== undefined && migrationMoving(query.state.data) ? PENDING_POLL_MS : false),
    staleTime: 0,
  });
}
