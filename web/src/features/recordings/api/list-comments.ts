import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET comments`: comments across the tenant's recordings (as the caller's groups and types allow). */
export const listComments = endpointOf(payloadEndpoints, 'client.comments.list');

export type CommentListQuery = NonNullable<Parameters<typeof useCursorList<typeof listComments>>[1]['query']>;

export function useCommentList(query: CommentListQuery, options: { enabled?: boolean } = {}) {
  return useCursorList(listComments, { query }, options);
}
