import { useQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET payloads/{ref}/comments`: one payload's open comments. */
export const listPayloadComments = endpointOf(payloadEndpoints, 'client.payloads.comments.list');

/** A recording's comments: the first 100 (one page, the most the server gives at once). */
export function usePayloadComments(payloadReference: string, options: { enabled?: boolean } = {}) {
  const { session } = useSession();
  return useQuery({
    ...sessionQueryOptions(session, listPayloadComments, { params: { payload_reference: payloadReference }, query: { limit: '100' } }),
    ...options,
  });
}
