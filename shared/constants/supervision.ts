import * as z from 'zod';

/**
 * Supervision policy kinds: a Lexicon policy raises items on terms found in a message's text or a recording's notes;
 * an Ignore policy marks known noise (disclaimers, signatures) whose words raise nothing; a Sampling policy picks a
 * share of each supervised person's recordings a day for review.
 */
export const SUPERVISION_POLICY_KINDS = ['Lexicon', 'Ignore', 'Sampling'] as const;
export const SupervisionPolicyKind = z.enum(SUPERVISION_POLICY_KINDS);
export type SupervisionPolicyKind = z.infer<typeof SupervisionPolicyKind>;

/** An item is Open, Claimed by one reviewer, Escalated, or Closed with a disposition; reopening goes back to Open. */
export const SUPERVISION_ITEM_STATES = ['Open', 'Claimed', 'Escalated', 'Closed'] as const;
export const SupervisionItemState = z.enum(SUPERVISION_ITEM_STATES);
export type SupervisionItemState = z.infer<typeof SupervisionItemState>;

/** What a reviewer found. Every disposition but `No issue` needs a note. */
export const SUPERVISION_DISPOSITIONS = ['No issue', 'False positive', 'Issue – reported', 'Issue – actioned'] as const;
export const SupervisionDisposition = z.enum(SUPERVISION_DISPOSITIONS);
export type SupervisionDisposition = z.infer<typeof SupervisionDisposition>;

/** What a reviewer does to an item (`PUT supervision/items/{item_reference}`, and in bulk). */
export const SUPERVISION_ITEM_ACTIONS = ['claim', 'release', 'assign', 'escalate', 'close', 'reopen'] as const;
export const SupervisionItemAction = z.enum(SUPERVISION_ITEM_ACTIONS);
export type SupervisionItemAction = z.infer<typeof SupervisionItemAction>;

/** What a history entry records: the item's creation, a new hit on it, or a reviewer's action. */
export const SUPERVISION_HISTORY_EVENTS = ['raise', 'hit', ...SUPERVISION_ITEM_ACTIONS] as const;
export const SupervisionHistoryEvent = z.enum(SUPERVISION_HISTORY_EVENTS);
export type SupervisionHistoryEvent = z.infer<typeof SupervisionHistoryEvent>;

/** The three supervision reports (`GET supervision/reports/{report}`). */
export const SUPERVISION_REPORTS = ['outstanding', 'outcomes', 'reviewers'] as const;
export const SupervisionReport = z.enum(SUPERVISION_REPORTS);
export type SupervisionReport = z.infer<typeof SupervisionReport>;

/** An apply-to-a-past-period run of a policy, as its progress shows. */
export const SUPERVISION_APPLY_STATES = ['Running', 'Completed', 'Failed'] as const;
export const SupervisionApplyState = z.enum(SUPERVISION_APPLY_STATES);
export type SupervisionApplyState = z.infer<typeof SupervisionApplyState>;

/** Where a lexicon match was found: a message's text, or the notes of an interview, photo or video. */
export const SUPERVISION_TEXT_FIELDS = ['text', 'notes'] as const;
export const SupervisionTextField = z.enum(SUPERVISION_TEXT_FIELDS);
export type SupervisionTextField = z.infer<typeof SupervisionTextField>;

/** Payload types whose text a lexicon policy reads (messages) and whose notes it reads (the rest). */
export const LEXICON_MESSAGE_TYPES = ['SMS', 'MMS', 'RCS'] as const;
export const LEXICON_NOTES_TYPES = ['Interview', 'Photo', 'Video'] as const;
/** Payload types a sampling policy picks from. */
export const SAMPLING_TYPES = ['Call', 'Interview', 'Photo', 'Video'] as const;

/** Bounds (ours; the issue names the scale): terms per policy, days to review, sample share. */
export const SUPERVISION_TERMS_MAX = 1000;
export const SUPERVISION_REVIEW_DAYS_MAX = 365;
export const SUPERVISION_REVIEW_DAYS_DEFAULT = 7;
export const SUPERVISION_SAMPLE_MINIMUM_MAX = 100;
/** Preview reads at most this many recordings of the period and says when it stopped short. */
export const SUPERVISION_PREVIEW_SCAN_MAX = 5000;
export const SUPERVISION_PREVIEW_EXAMPLES_MAX = 10;
