import * as z from 'zod';
import { RetentionRecordType } from '../../constants/account.ts';
import { DateTimeIso, DeviceUserReference, text } from '../fields.ts';
import { Actor } from './actor.ts';
import { HeldBy } from './legal-hold-ref.ts';
import { Timestamp } from './common.ts';

/**
 * Erasure requests (GDPR Art 17): a device user's request to erase their personal data, recorded, decided record kind
 * by record kind with the retention machinery's own rules (kept under a legal hold, 17(3)(e); kept under a legal
 * obligation until its retention date, 17(3)(b); otherwise erased), reviewed by a second person, then run.
 * docs/erasure.md describes the flow.
 */

/** The longest note a request may carry: a few paragraphs, not a document (the letter itself is kept elsewhere). */
export const ERASURE_NOTE_MAX = 2000;
/** The longest reason a reviewer may give. */
export const ERASURE_REASON_MAX = 1000;
/** A representative's name as written on the request. */
export const ERASURE_REPRESENTATIVE_MAX = 200;

/** How the request reached the firm. */
export const ERASURE_CHANNELS = ['Email', 'Letter', 'Phone', 'InPerson', 'Other'] as const;
export const ErasureChannel = z.enum(ERASURE_CHANNELS);
export type ErasureChannel = z.infer<typeof ErasureChannel>;

/** Who asked: the person themself, or a representative (a lawyer, a relative) named as the request names them. */
export const ErasureRequester = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('DataSubject') }),
  z.strictObject({ type: z.literal('Representative'), name: text(1, ERASURE_REPRESENTATIVE_MAX) }),
]);
export type ErasureRequester = z.infer<typeof ErasureRequester>;

/**
 * Where a request stands. `Recorded` → `Deciding` (the decision job walks the person's records) → `Decided` →
 * reviewed by a second person: `Rejected` (nothing erased), or `Approved` → `Erasing` (the erasure job) → `Completed`.
 * `Failed`: a job could not go on after its resumptions (the job-sweep ended it, with `error_message`); what was
 * erased before stays erased, with its disposal records.
 */
export const ERASURE_STATES = ['Recorded', 'Deciding', 'Decided', 'Approved', 'Rejected', 'Erasing', 'Completed', 'Failed'] as const;
export const ErasureState = z.enum(ERASURE_STATES);
export type ErasureState = z.infer<typeof ErasureState>;

/** The kinds of records about a person the decision walks, each under one retention record type. */
export const ERASURE_KINDS = [
  'PersonalFields',
  'Recordings',
  'GpsFixes',
  'DeviceLogs',
  'ActivityRecords',
  'LedgerEntries',
  'SupervisionItems',
] as const;
export const ErasureKind = z.enum(ERASURE_KINDS);
export type ErasureKind = z.infer<typeof ErasureKind>;

/** The GDPR exception that keeps a record: a legal hold (17(3)(e)) or a legal obligation to keep it (17(3)(b)). */
export const ERASURE_EXCEPTIONS = ['LegalHold', 'LegalObligation'] as const;
export const ErasureException = z.enum(ERASURE_EXCEPTIONS);
export type ErasureException = z.infer<typeof ErasureException>;

/** Records of one kind kept under one exception: how many, why, and until when. */
export const ErasureKept = z.object({
  exception: ErasureException,
  /** The article as the report prints it: `17(3)(e)` or `17(3)(b)`. */
  article: z.string(),
  count: z.int().min(0),
  /** The holds that keep them (LegalHold). */
  holds: z.array(HeldBy).optional(),
  /** The rule that keeps them, in words (LegalObligation): the record type, its period and what it counts from. */
  rule: z.string().optional(),
  /** The latest date one of them may be disposed of (LegalObligation); none when a hold keeps them. */
  kept_until: Timestamp.optional(),
  /** True when a hold placed after the decision kept them at erase time. */
  held_after_decision: z.boolean().optional(),
});
export type ErasureKept = z.infer<typeof ErasureKept>;

/** The decision (and, once run, the outcome) for one kind of record about the person. */
export const ErasureKindOutcome = z.object({
  kind: ErasureKind,
  record_type: RetentionRecordType,
  /** Records of this kind found about the person. */
  found: z.int().min(0),
  /** Records no exception keeps, marked for erasure by the decision. */
  to_erase: z.int().min(0),
  /** Records erased by the run (each with a disposal record). */
  erased: z.int().min(0),
  kept: z.array(ErasureKept),
  /** The earliest and latest timestamp of what was erased (the report's dates). */
  erased_from: Timestamp.optional(),
  erased_to: Timestamp.optional(),
});
export type ErasureKindOutcome = z.infer<typeof ErasureKindOutcome>;

/** A job's progress on the request: records walked of those found (the total once known). */
export const ErasureProgress = z.object({
  phase: z.enum(['Deciding', 'Erasing']),
  done: z.int().min(0),
  total: z.int().min(0).optional(),
});

/** The second person's review. */
export const ErasureReview = z.object({
  decision: z.enum(['Approve', 'Reject']),
  reason: z.string(),
  reviewed_by: z.string(),
  /** The reviewer as they were named when they reviewed (docs/data-model.md, "Who acted"). */
  reviewed_by_actor: Actor.optional(),
  reviewed_at: Timestamp,
});

/** One erasure request, its decision, review and report. */
export const ErasureRequest = z.object({
  client: z.string(),
  erasure_request_reference: z.string(),
  device_user_reference: z.string(),
  /**
   * The person's name as their device user record gave it when the request was recorded, kept with the request: the
   * request is the record of how their erasure was handled, and the report is addressed to them after their personal
   * fields are destroyed.
   */
  device_user_name: z.string().optional(),
  requester: ErasureRequester,
  received_at: Timestamp,
  channel: ErasureChannel,
  note: z.string().optional(),
  erasure_state: ErasureState,
  progress: ErasureProgress.optional(),
  /** Per kind: the decision once `Decided`, the outcome once `Completed`. */
  outcomes: z.array(ErasureKindOutcome),
  decided_at: Timestamp.optional(),
  review: ErasureReview.optional(),
  completed_at: Timestamp.optional(),
  error_message: z.string().optional(),
  created_at: Timestamp,
  created_by: z.string(),
  /** Who recorded it, as they were named then (docs/data-model.md, "Who acted"). */
  created_by_actor: Actor.optional(),
});
export type ErasureRequest = z.infer<typeof ErasureRequest>;

/** `POST account/erasure_requests`: record a request (received in the past, not in the future). */
export const CreateErasureRequest = z.strictObject({
  device_user_reference: DeviceUserReference,
  requester: ErasureRequester,
  received_at: DateTimeIso.refine((value) => Date.parse(value.replace(' ', 'T')) <= Date.now() + 60_000, {
    error: 'Must not be in the future',
  }),
  channel: ErasureChannel,
  note: text(1, ERASURE_NOTE_MAX).optional(),
});
export type CreateErasureRequest = z.infer<typeof CreateErasureRequest>;

/** `POST account/erasure_requests/{erasure_request_reference}/review`: approve (erasure runs) or reject, with a reason. */
export const ReviewErasureRequest = z.strictObject({
  decision: z.enum(['Approve', 'Reject']),
  reason: text(1, ERASURE_REASON_MAX),
});
export type ReviewErasureRequest = z.infer<typeof ReviewErasureRequest>;
