import * as z from 'zod';
import { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A comment on a payload, in the payload's partition (and on the tenant's comment list by raised time). It copies
 * the payload's type and group, so the tenant-wide list filters and restricts without reading each payload.
 */
export const CommentItem = PayloadComment.extend({
  /** Starts at 1; each edit adds one (and is conditional on it). */
  comment_version: z.number(),
  /** Closed means deleted: users close comments, never remove them (retention removes a destroyed recording's). Absent on a comment never closed. */
  is_closed: z.boolean().optional(),
});
export type CommentItem = z.infer<typeof CommentItem>;

export function readComment(item: TableItem): CommentItem {
  return readItem('Comment', CommentItem, item);
}

/** A new comment with its keys. */
export function commentToItem(client: string, comment: CommentItem): TableItem {
  return { ...keys.comment.item(client, comment.payload_reference, comment.comment_id, comment.raised_at, comment.raised_by), ...comment };
}

export function toPayloadComment(stored: CommentItem): PayloadComment {
  return PayloadComment.parse(stored);
}
