import * as z from 'zod';
import { PAYLOAD_TYPES, PayloadType } from '../../constants/payloads.ts';
import {
  SUPERVISION_REVIEW_DAYS_DEFAULT,
  SUPERVISION_REVIEW_DAYS_MAX,
  SUPERVISION_SAMPLE_MINIMUM_MAX,
  SUPERVISION_TERMS_MAX,
  SupervisionApplyState,
  SupervisionDisposition,
  SupervisionHistoryEvent,
  SupervisionItemState,
  SupervisionPolicyKind,
  SupervisionTextField,
} from '../../constants/supervision.ts';
import { TERM_LENGTH_MAX, termProblem } from '../../supervision/lexicon/term-syntax.ts';
import { PERMISSION_CONDITIONS_MAX } from '../bounds.ts';
import {
  DateTimeParam,
  DeviceUserReference,
  integer,
  PayloadReference,
  safeNumber,
  SupervisionPolicyReference,
  text,
  uniqueList,
  UserReference,
} from '../fields.ts';
import { itemsAtMost, itemsBetween } from '../messages.ts';
import { Actor } from './actor.ts';
import { Audited, Timestamp } from './common.ts';
import { Condition } from './roles.ts';

/** One lexicon term (term syntax: shared/supervision/lexicon/term-syntax.ts); a term the engine cannot use is a 400. */
export const LexiconTerm = z.string().max(TERM_LENGTH_MAX, { error: `Must be at most ${TERM_LENGTH_MAX} characters` }).superRefine((term, context) => {
  const problem = termProblem(term);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

/**
 * Whose recordings a policy reads: groups chosen by conditions (as a role's group conditions are: all matchers of one
 * condition must match, any allowing condition admits a group, a denying one excludes it), named device users, and
 * payload types. No groups and no device users means everyone the tenant records.
 */
export const SupervisionScope = z.strictObject({
  group_conditions: z
    .array(Condition)
    .max(PERMISSION_CONDITIONS_MAX, { error: itemsAtMost(PERMISSION_CONDITIONS_MAX) })
    .default([]),
  device_user_references: z.array(DeviceUserReference).max(100, { error: itemsAtMost(100) }).default([]),
  payload_types: z
    .array(PayloadType)
    .min(1, { error: itemsBetween(1, PAYLOAD_TYPES.length) })
    .max(PAYLOAD_TYPES.length, { error: itemsBetween(1, PAYLOAD_TYPES.length) })
    .default([...PAYLOAD_TYPES]),
});
export type SupervisionScope = z.infer<typeof SupervisionScope>;

/** Share of a person's recordings a day a sampling policy picks: 0.1 to 100 %, to a tenth. */
const SamplePercent = safeNumber(0.1, 100).multipleOf(0.1, { error: 'Must be a percentage with at most one decimal place' });

/**
 * Create or replace a policy (`POST`/`PUT supervision/policies/{policy_reference}`). Lexicon and Ignore policies need
 * 1 to 1000 terms; a Sampling policy needs its share and takes no terms. Days to review count from the item's raising;
 * an Ignore policy raises nothing, so it has none.
 */
export const SupervisionPolicyRequest = z
  .strictObject({
    /** The path's policy_reference: may be repeated here, refused when it differs. */
    policy_reference: SupervisionPolicyReference.optional(),
    kind: SupervisionPolicyKind,
    description: text(0, 1000).optional(),
    is_enabled: z.boolean().default(true),
    scope: SupervisionScope.default({ group_conditions: [], device_user_references: [], payload_types: [...PAYLOAD_TYPES] }),
    terms: z.array(LexiconTerm).max(SUPERVISION_TERMS_MAX, { error: itemsBetween(1, SUPERVISION_TERMS_MAX) }).default([]),
    sample_percent: SamplePercent.optional(),
    /** At least this many of a person's recordings a day, when they made that many (sampling only). */
    sample_minimum: integer(0, SUPERVISION_SAMPLE_MINIMUM_MAX).default(1),
    review_days: integer(1, SUPERVISION_REVIEW_DAYS_MAX).default(SUPERVISION_REVIEW_DAYS_DEFAULT),
  })
  .superRefine((policy, context) => {
    const hasTerms = policy.terms.length > 0;
    if (policy.kind === 'Sampling') {
      if (policy.sample_percent === undefined) context.addIssue({ code: 'custom', path: ['sample_percent'], message: 'A sampling policy needs its share' });
      if (hasTerms) context.addIssue({ code: 'custom', path: ['terms'], message: 'A sampling policy takes no terms' });
      return;
    }
    if (!hasTerms) context.addIssue({ code: 'custom', path: ['terms'], message: itemsBetween(1, SUPERVISION_TERMS_MAX) });
    if (policy.sample_percent !== undefined) context.addIssue({ code: 'custom', path: ['sample_percent'], message: 'Only a sampling policy takes a share' });
    const unique = new Set(policy.terms.map((term) => term.trim().toLowerCase()));
    if (unique.size !== policy.terms.length) context.addIssue({ code: 'custom', path: ['terms'], message: 'Must not repeat a term' });
  });
export type SupervisionPolicyRequest = z.infer<typeof SupervisionPolicyRequest>;

/** The latest apply-to-a-past-period run of a policy, with its progress. */
export const SupervisionApplyRun = z.object({
  state: SupervisionApplyState,
  from: Timestamp,
  to: Timestamp,
  started_at: Timestamp,
  started_by: z.string(),
  started_by_actor: Actor.optional(),
  finished_at: Timestamp.optional(),
  /** Recordings of the period read so far, and items raised or given a new hit by this run. */
  scanned: z.int().min(0),
  raised: z.int().min(0),
  message: z.string().optional(),
});
export type SupervisionApplyRun = z.infer<typeof SupervisionApplyRun>;

/** A stored policy. `sampling_seed` keys a sampling policy's choice, so the same recordings are chosen on a re-run. */
export const SupervisionPolicy = Audited.extend({
  policy_reference: z.string(),
  kind: SupervisionPolicyKind,
  description: z.string().optional(),
  is_enabled: z.boolean(),
  scope: z.object({
    group_conditions: z.array(z.looseObject({})).default([]),
    device_user_references: z.array(z.string()).default([]),
    payload_types: z.array(PayloadType),
  }),
  terms: z.array(z.string()).default([]),
  sample_percent: z.number().optional(),
  sample_minimum: z.int().min(0).default(1),
  review_days: z.int().min(1),
  sampling_seed: z.string().optional(),
  policy_version: z.int().min(1),
  last_apply: SupervisionApplyRun.optional(),
});
export type SupervisionPolicy = z.infer<typeof SupervisionPolicy>;

/** A span of the text that matched, in UTF-16 code units of the text as stored (end exclusive). */
export const TextSpan = z.object({ start: z.int().min(0), end: z.int().min(0) });
export type TextSpan = z.infer<typeof TextSpan>;

/**
 * Why a recording is in the queue: one policy's hit. A lexicon hit names the term and where it matched (never the
 * text); a sampling hit carries the keyed-hash value that chose it, so the choice can be explained and reproduced.
 */
export const SupervisionHit = z.object({
  policy_reference: z.string(),
  kind: z.enum(['Lexicon', 'Sampling']),
  term: z.string().optional(),
  field: SupervisionTextField.optional(),
  matches: z.array(TextSpan).default([]),
  sample_value: z.number().optional(),
  /** Set when the daily top-up chose it to reach the policy's minimum per person and day. */
  is_minimum_top_up: z.boolean().optional(),
  raised_at: Timestamp,
});
export type SupervisionHit = z.infer<typeof SupervisionHit>;

/** One recording under review. Its reference is the recording's payload reference: one item per recording. */
export const SupervisionItem = z.object({
  item_reference: z.string(),
  payload_type: PayloadType,
  payload_time: Timestamp,
  device_reference: z.string().optional(),
  device_user_reference: z.string().optional(),
  /** The supervised person's name as the device user record had it when the item was raised. */
  device_user_name: z.string().optional(),
  group: z.string().optional(),
  hits: z.array(SupervisionHit),
  state: SupervisionItemState,
  assignee: z.string().optional(),
  assignee_actor: Actor.optional(),
  /** The earliest deadline of its policies: days to review from its raising. */
  due_at: Timestamp,
  is_overdue: z.boolean(),
  disposition: SupervisionDisposition.optional(),
  note: z.string().optional(),
  closed_by: z.string().optional(),
  closed_by_actor: Actor.optional(),
  closed_at: Timestamp.optional(),
  raised_at: Timestamp,
  updated_at: Timestamp,
  item_version: z.int().min(1),
});
export type SupervisionItem = z.infer<typeof SupervisionItem>;

/** One transition of an item, as it happened: never changed, never deleted. */
export const SupervisionHistoryEntry = z.object({
  event: SupervisionHistoryEvent,
  at: Timestamp,
  by: z.string(),
  by_actor: Actor.optional(),
  from_state: SupervisionItemState.optional(),
  to_state: SupervisionItemState,
  disposition: SupervisionDisposition.optional(),
  note: z.string().optional(),
  assignee: z.string().optional(),
  assignee_actor: Actor.optional(),
  policy_reference: z.string().optional(),
  is_bulk: z.boolean().default(false),
});
export type SupervisionHistoryEntry = z.infer<typeof SupervisionHistoryEntry>;

/** `GET supervision/items/{item_reference}`: the item with its whole history, oldest first. */
export const SupervisionItemDetail = SupervisionItem.extend({ history: z.array(SupervisionHistoryEntry) });
export type SupervisionItemDetail = z.infer<typeof SupervisionItemDetail>;

/** A reviewer's note or reason: 1 to 4000 characters. */
const ReviewNote = text(1, 4000);

/** One action on an item; close needs a disposition, and a note for any but `No issue`; reopen needs a reason. */
const Claim = z.strictObject({ action: z.literal('claim') });
const Release = z.strictObject({ action: z.literal('release') });
const Assign = z.strictObject({ action: z.literal('assign'), assignee: UserReference });
const Escalate = z.strictObject({ action: z.literal('escalate'), note: ReviewNote.optional() });
const Close = z.strictObject({ action: z.literal('close'), disposition: SupervisionDisposition, note: ReviewNote.optional() });
const Reopen = z.strictObject({ action: z.literal('reopen'), note: ReviewNote });

const noteMissing = (action: { action: string; disposition?: string; note?: string }): boolean =>
  action.action === 'close' && action.disposition !== 'No issue' && action.note === undefined;
const NOTE_NEEDED = { error: 'A note is required for any disposition but No issue', path: ['note'] };

export const SupervisionItemUpdate = z
  .discriminatedUnion('action', [Claim, Release, Assign, Escalate, Close, Reopen])
  .refine((action) => !noteMissing(action), NOTE_NEEDED);
export type SupervisionItemUpdate = z.infer<typeof SupervisionItemUpdate>;

/** The same action on 1 to 100 unique items; each item gets its own history entry, marked as bulk. */
const onItems = { item_references: uniqueList(PayloadReference) };
export const SupervisionBulkUpdate = z
  .discriminatedUnion('action', [
    Claim.extend(onItems),
    Release.extend(onItems),
    Assign.extend(onItems),
    Escalate.extend(onItems),
    Close.extend(onItems),
    Reopen.extend(onItems),
  ])
  .refine((action) => !noteMissing(action), NOTE_NEEDED);
export type SupervisionBulkUpdate = z.infer<typeof SupervisionBulkUpdate>;

/** A preview: the policy as it would be saved, over a past period. */
export const SupervisionPreviewRequest = z.strictObject({
  policy: SupervisionPolicyRequest,
  from: DateTimeParam,
  to: DateTimeParam,
});
export type SupervisionPreviewRequest = z.infer<typeof SupervisionPreviewRequest>;

/** What a policy would have raised: counts over the recordings read, and up to ten examples. */
export const SupervisionPreview = z.object({
  scanned: z.int().min(0),
  would_raise: z.int().min(0),
  /** True when the period held more recordings than a preview reads; the counts are then of those read. */
  is_partial: z.boolean(),
  examples: z.array(
    z.object({
      payload_reference: z.string(),
      payload_type: PayloadType,
      payload_time: Timestamp,
      device_user_reference: z.string().optional(),
      hits: z.array(SupervisionHit),
    }),
  ),
});
export type SupervisionPreview = z.infer<typeof SupervisionPreview>;

export const SupervisionApplyRequest = z.strictObject({ from: DateTimeParam, to: DateTimeParam });
export type SupervisionApplyRequest = z.infer<typeof SupervisionApplyRequest>;

const DispositionCounts = z.object({
  'No issue': z.int().min(0),
  'False positive': z.int().min(0),
  'Issue – reported': z.int().min(0),
  'Issue – actioned': z.int().min(0),
});

/** Outstanding work per supervised person and policy, by age (days since raised). */
export const OutstandingReport = z.object({
  report: z.literal('outstanding'),
  rows: z.array(
    z.object({
      device_user_reference: z.string().optional(),
      device_user_name: z.string().optional(),
      policy_reference: z.string(),
      open: z.int().min(0),
      claimed: z.int().min(0),
      escalated: z.int().min(0),
      overdue: z.int().min(0),
      age_days: z.object({ '0-7': z.int().min(0), '8-30': z.int().min(0), '31+': z.int().min(0) }),
      oldest_raised_at: Timestamp.optional(),
    }),
  ),
});

const OutcomeRow = z.object({
  policy_reference: z.string(),
  hits: z.int().min(0),
  closed: z.int().min(0),
  dispositions: DispositionCounts,
  /** Closed as False positive over closed; absent when none is closed. */
  false_positive_share: z.number().min(0).max(1).optional(),
});

/** Per policy and per term: hits, each disposition, the share closed as false positive. */
export const OutcomesReport = z.object({
  report: z.literal('outcomes'),
  policies: z.array(OutcomeRow),
  terms: z.array(OutcomeRow.extend({ term: z.string() })),
});

/** Per reviewer: items closed and the median time from raising to closing. */
export const ReviewersReport = z.object({
  report: z.literal('reviewers'),
  rows: z.array(
    z.object({
      reviewer: z.string(),
      reviewer_actor: Actor.optional(),
      closed: z.int().min(0),
      median_hours_to_close: z.number().min(0),
    }),
  ),
});

export const SupervisionReportResponse = z.discriminatedUnion('report', [OutstandingReport, OutcomesReport, ReviewersReport]);
export type SupervisionReportResponse = z.infer<typeof SupervisionReportResponse>;
