import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listPayloadComments } from './list-payload-comments.ts';

/** `POST payloads/{ref}/comments`: comment on a recording, optionally on a span of it. */
export const createPayloadComment = endpointOf(payloadEndpoints, 'client.payloads.comments.create');

export function useCreatePayloadComment() {
  return useEndpointMutation(createPayloadComment, { invalidates: [listPayloadComments] });
}
