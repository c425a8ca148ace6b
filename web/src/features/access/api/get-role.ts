import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET roles/{role_reference}`. */
export const getRole = endpointOf(accessEndpoints, 'admin.roles.get');

export function roleQueryOptions(session: Session, roleReference: string) {
  return sessionQueryOptions(session, getRole, { params: { role_reference: roleReference } });
}

/** The role its route's loader ensured (ensureQueryData with the same options); suspends while it is not there. */
export function useRole(roleReference: string) {
  const { session } = useSession();
  return useSuspenseQuery(roleQueryOptions(session, roleReference));
}
