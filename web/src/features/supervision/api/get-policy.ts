import { useSuspenseQuery } from '@tanstack/react-query';
import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { PENDING_POLL_MS, sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { applyRunning } from './list-policies.ts';

/** `GET supervision/policies/{policy_reference}`: one policy with its latest apply run. */
export const getPolicy = endpointOf(supervisionEndpoints, 'admin.supervision.policies.get');

export function policyQueryOptions(session: Session, policyReference: string) {
  return sessionQueryOptions(session, getPolicy, { params: { policy_reference: policyReference } });
}

/**
 * The policy its route's loader ensured (ensureQueryData with the same options); suspends while it is not there.
 * Asked again every few seconds while its apply run is Running, so the progress bar moves.
 */
export function usePolicy(policyReference: string) {
  const { session } = useSession();
  return useSuspenseQuery({
    ...policyQueryOptions(session, policyReference),
    refetchInterval: (query) => (query.state.data !== undefined && applyRunning(query.state.data) ? PENDING_POLL_MS : false),
  });
}
