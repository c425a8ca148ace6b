import * as z from 'zod';
import { PayloadComment } from '#shared/contract/entities/comments.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { payloadPartition } from './payload.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes of a comment: the tenant's by raised time, one person's (who raised it). */
export const COMMENT_INDEXES = { byTenantTime: 'gsi1', byPerson: 'gsi2' } as const;

const COMMENT_PREFIX = 'COMMENT#';
const raiserPartition = (client: string, raisedBy: string) => `${tenantPrefix(client)}PERSON#${part(raisedBy)}#COMMENTS`;

/**
 * Payload comments (lambdas/payloads/comments): in the payload's own partition under `COMMENT#<comment_id>` (a ULID,
 * so a payload's comments read in the order raised), and on byTenantTime per tenant by raised time for `GET comments`.
 */
export const commentKeys = {
  item: (client: string, payloadReference: string, { commentId, raisedAt, raisedBy }: { commentId: string; raisedAt: Date | string; raisedBy?: string }): ItemKeys => ({
    ...commentKeys.key(client, payloadReference, commentId),
    entity: ENTITY.comment,
    ...onIndex[COMMENT_INDEXES.byTenantTime](`${tenantPrefix(client)}COMMENTS`, timeSort(raisedAt, commentId)),
    // Also listed under who raised it: what a legal hold on that portal user covers.
    ...(raisedBy === undefined ? {} : onIndex[COMMENT_INDEXES.byPerson](raiserPartition(client, raisedBy), timeSort(raisedAt, commentId))),
  }),
  /** The comments one person raised (`raised_by`: e-mail, else reference), by raised time. */
  listByRaiser: (client: string, raisedBy: string): ListKey => list(COMMENT_INDEXES.byPerson, raiserPartition(client, raisedBy)),
  key: (client: string, payloadReference: string, commentId: string): ItemKey => ({
    pk: payloadPartition(client, payloadReference),
    sk: `${COMMENT_PREFIX}${part(commentId)}`,
  }),
  /** One payload's comments: its partition, narrowed with `sortPrefix`. */
  listByPayload: (client: string, payloadReference: string): ListKey => list(undefined, payloadPartition(client, payloadReference)),
  sortPrefix: COMMENT_PREFIX,
  /** The tenant's comments by raised time. */
  list: (client: string): ListKey => list(COMMENT_INDEXES.byTenantTime, `${tenantPrefix(client)}COMMENTS`),
};

/**
 * A comment on a payload, in the payload's partition (and on the tenant's comment list by raised time). It copies
 * the payload's type and group, so the tenant-wide list filters and restricts without reading each payload.
 */
export const commentItemSchema = /* @__PURE__ */ onFirstUse(() => PayloadComment.extend({
  /** Starts at 1; each edit adds one (and is conditional on it). */
  comment_version: z.number(),
  /** Closed means deleted: users close comments, never remove them (retention removes a destroyed recording's). Absent on a comment never closed. */
  is_closed: z.boolean().optional(),
}));
export type CommentItem = z.infer<ReturnType<typeof commentItemSchema>>;

export function readComment(item: TableItem): CommentItem {
  return readItem('Comment', commentItemSchema(), item);
}

/** A new comment with its keys. */
export function commentToItem(client: string, comment: CommentItem): TableItem {
  return { ...commentKeys.item(client, comment.payload_reference, { commentId: comment.comment_id, raisedAt: comment.raised_at, ...(comment.raised_by === undefined ? {} : { raisedBy: comment.raised_by }) }), ...comment };
}

export function toPayloadComment(stored: CommentItem): PayloadComment {
  return PayloadComment.parse(stored);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const commentModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.comment,
  title: 'Payload comment',
  module: 'comment.ts',
  indexes: COMMENT_INDEXES,
  items: [{ when: 'byPerson under who raised it', example: () => commentKeys.item(EXAMPLE_CLIENT, '<ref>', { commentId: '<comment_id>', raisedAt: '<raised_at>', raisedBy: '<raised_by>' }) }],
  accessPatterns: [
    {
      name: 'One payload\'s comments, in the order raised',
      serves: '`GET payloads/{payload_reference}/comments`',
      builders: ['keys.comment.listByPayload', 'keys.comment.sortPrefix'],
      example: () => ({ ...commentKeys.listByPayload(EXAMPLE_CLIENT, '<ref>'), sort: { beginsWith: commentKeys.sortPrefix } }),
    },
    { name: 'The tenant\'s comments, newest first', serves: '`GET comments` (from/to on raised_at: key condition)', builders: ['keys.comment.list'], example: () => commentKeys.list(EXAMPLE_CLIENT) },
    {
      name: 'The comments one person raised',
      serves: 'what a legal hold on a portal user covers (`coverage`)',
      builders: ['keys.comment.listByRaiser'],
      example: () => commentKeys.listByRaiser(EXAMPLE_CLIENT, '<raised_by>'),
    },
  ],
}));
