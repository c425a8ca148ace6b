import { useSuspenseQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET payloads/{ref}`: one payload with its decrypted meta. */
export const getPayload = endpointOf(payloadEndpoints, 'client.payloads.get');

export function payloadQueryOptions(session: Session, payloadReference: string) {
  return sessionQueryOptions(session, getPayload, { params: { payload_reference: payloadReference } });
}

/** The payload its route's loader ensured (ensureQueryData with the same options); suspends while it is not there. */
export function usePayload(payloadReference: string) {
  const { session } = useSession();
  return useSuspenseQuery(payloadQueryOptions(session, payloadReference));
}
