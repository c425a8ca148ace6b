import * as z from 'zod';
import { PayloadType } from '#shared/constants/payloads.ts';
import { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A comment on a payload, in the payload's partition (and on the tenant's comment list by raised time). It copies
 * the payload's type and group, so the tenant-wide list filters and restricts without reading each payload.
 */
export const CommentItem = z.object({
  comment_id: z.string(),
  comment_body: z.string(),
  raised_by: z.string(),
  raised_at: z.string(),
  /** Starts at 1; each edit adds one (and is conditional on it). */
  comment_version: z.number(),
  updated_by: z.string().optional(),
  updated_at: z.string().optional(),
  /** Closed means deleted: comments are logically closed, never removed. */
  is_closed: z.boolean().optional(),
  closed_by: z.string().optional(),
  closed_at: z.string().optional(),
  comment_duration: z.object({ start_time: z.number(), duration: z.number() }).optional(),
  payload_reference: z.string(),
  payload_type: PayloadType,
  group: z.string().optional(),
});
export type CommentItem = z.infer<typeof CommentItem>;

export function readComment(item: TableItem): CommentItem {
  return readItem('Comment', CommentItem, item);
}

/** A new comment with its keys. */
export function commentToItem(client: string, comment: CommentItem): TableItem {
  return { ...keys.comment.item(client, comment.payload_reference, comment.comment_id, comment.raised_at), ...comment };
}

export function toPayloadComment(stored: CommentItem): PayloadComment {
  return PayloadComment.parse(stored);
}
