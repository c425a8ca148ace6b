import { useSuspenseQuery } from '@tanstack/react-query';
import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET supervision/items/{item_reference}`: one review item with its whole history. */
export const getSupervisionItem = endpointOf(supervisionEndpoints, 'admin.supervision.items.get');

export function supervisionItemQueryOptions(session: Session, itemReference: string) {
  return sessionQueryOptions(session, getSupervisionItem, { params: { item_reference: itemReference } });
}

/** The item its route's loader ensured (ensureQueryData with the same options); suspends while it is not there. */
export function useSupervisionItem(itemReference: string) {
  const { session } = useSession();
  return useSuspenseQuery(supervisionItemQueryOptions(session, itemReference));
}
