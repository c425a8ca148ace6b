import { useQuery } from '@tanstack/react-query';
import type { DataAction } from '#shared/constants/payloads.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../session/session-context.tsx';
import type { Session } from '../../session/session.ts';

/** `GET payloads/{ref}/data`: a short-lived, audited link to the recording (and, on play, to its waveform peaks). */
export const getPayloadData = endpointOf(payloadEndpoints, 'client.payloads.data');

/**
 * How long a data link is reused. The server signs links for 300 s (DATA_URL_SECONDS); a link is dropped from the
 * cache well before, so nothing ever hands the browser an expired one, and a player that outlives it asks again.
 */
export const DATA_LINK_REUSE_MS = 240_000;

export function payloadDataQueryOptions(session: Session, payloadReference: string, action: DataAction) {
  return {
    ...sessionQueryOptions(session, getPayloadData, { params: { payload_reference: payloadReference }, query: { action } }),
    staleTime: DATA_LINK_REUSE_MS,
    gcTime: DATA_LINK_REUSE_MS,
    // Each link written is an audit record: never ask again just because the window regained focus.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  } as const;
}

/** The play link of a recording, asked for once the player shows (`enabled`). */
export function usePlayLink(payloadReference: string, options: { enabled: boolean }) {
  const { session } = useSession();
  return useQuery({ ...payloadDataQueryOptions(session, payloadReference, 'play'), enabled: options.enabled });
}
