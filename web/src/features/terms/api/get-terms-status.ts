import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import type { Session } from '../../../lib/session/session.ts';

/** `GET terms`: whether the signed-in user accepted the terms in force. */
export const termsStatusEndpoint = endpointOf(identityEndpoints, 'admin.terms.get');

/** The signed-in user's terms status; the same options serve the guard (ensureQueryData) and the terms page. */
export function termsStatusOptions(session: Session) {
  const { client, supportReference } = session.getState();
  return {
    queryKey: sessionQueryKey(termsStatusEndpoint, { client, supportReference }, {}),
    queryFn: ({ signal }: { signal: AbortSignal }) => session.call(termsStatusEndpoint, {}, signal),
    staleTime: 60_000,
  };
}
