import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listPayloadComments } from './list-payload-comments.ts';

/** `PUT payloads/{ref}/comments/{id}`: edit a comment's text or span (a new comment_version). */
export const updatePayloadComment = endpointOf(payloadEndpoints, 'client.payloads.comments.update');

export function useUpdatePayloadComment() {
  return useEndpointMutation(updatePayloadComment, { invalidates: [listPayloadComments] });
}
