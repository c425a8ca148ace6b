import * as z from 'zod';
import { PayloadType } from '../../constants/payloads.ts';
import { safeNumber, text } from '../fields.ts';
import { Actor } from './actor.ts';
import { Timestamp } from './common.ts';

/**
 * Seconds to a tenth (6.2, 9, 0.1): a span is saved as the reader drew it on the waveform or marked it on the video,
 * to 0.1 s (whole seconds moved a drawn 6.2 to 9.0 s out to 6 to 10 s). Finer values are refused, not rounded, so
 * what is stored is exactly what was sent.
 */
const SpanSeconds = safeNumber(0).multipleOf(0.1, { error: 'Must be a number of seconds with at most one decimal place' });

/** The part of the recording a comment refers to: start and duration in seconds, to a tenth. */
export const CommentDuration = z.strictObject({ start_time: SpanSeconds, duration: SpanSeconds });

/** Closed means deleted: comments are logically closed, never removed. */
export const PayloadComment = z.object({
  comment_id: z.string(),
  comment_body: z.string(),
  /** The author's stable reference (./actor.ts); `raised_by_actor` names them as they were when they wrote it. */
  raised_by: z.string(),
  raised_by_actor: Actor.optional(),
  raised_at: Timestamp,
  comment_version: z.int().min(1),
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  updated_at: Timestamp.optional(),
  is_closed: z.boolean().default(false),
  closed_by: z.string().optional(),
  closed_by_actor: Actor.optional(),
  closed_at: Timestamp.optional(),
  comment_duration: z.object({ start_time: z.number(), duration: z.number() }).optional(),
  payload_reference: z.string(),
  payload_type: PayloadType,
  group: z.string().optional(),
});
export type PayloadComment = z.infer<typeof PayloadComment>;

/** Comment text: 1 to 4000 characters (our bound; the spec gives none). */
const CommentText = text(1, 4000);

export const CommentPostRequest = z.strictObject({ message: CommentText, comment_duration: CommentDuration.optional() });
export type CommentPostRequest = z.infer<typeof CommentPostRequest>;

export const CommentPutRequest = z.strictObject({
  message: CommentText.optional(),
  comment_duration: CommentDuration.optional(),
});
export type CommentPutRequest = z.infer<typeof CommentPutRequest>;
