import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listPayloadComments } from './list-payload-comments.ts';

/** `DELETE payloads/{ref}/comments/{id}`: close a comment (kept, shown as closed). */
export const closePayloadComment = endpointOf(payloadEndpoints, 'client.payloads.comments.delete');

export function useClosePayloadComment() {
  return useEndpointMutation(closePayloadComment, { invalidates: [listPayloadComments] });
}
