import type {
  ErasureChannel,
  ErasureKept,
  ErasureKind,
  ErasureKindOutcome,
  ErasureRequest,
  ErasureRequester,
  ErasureState,
} from '#shared/contract/entities/erasure-requests.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { RETENTION_RECORD_TYPE_LABELS } from '../../lib/labels.ts';
import type { RetentionRecordType } from '#shared/constants/account.ts';

/**
 * What the erasure screens say about a request, worked out from the contract's fields alone (docs/erasure.md): its
 * state in words, its job's progress, who asked, what is kept under which exception and until when, and who may
 * review it. Pure, so it is tested without rendering.
 */

export const ERASURE_STATE_WORDS: Record<ErasureState, { label: string; color: string }> = {
  Recorded: { label: 'Recorded', color: 'gray' },
  Deciding: { label: 'Deciding', color: 'blue' },
  Decided: { label: 'Decided: awaiting review', color: 'yellow' },
  Approved: { label: 'Approved', color: 'teal' },
  Rejected: { label: 'Rejected', color: 'gray' },
  Erasing: { label: 'Erasing', color: 'orange' },
  Completed: { label: 'Completed', color: 'green' },
  Failed: { label: 'Failed', color: 'red' },
};

export const ERASURE_CHANNEL_LABELS: Record<ErasureChannel, string> = {
  Email: 'E-mail',
  Letter: 'Letter',
  Phone: 'Phone',
  InPerson: 'In person',
  Other: 'Other',
};

export const ERASURE_KIND_LABELS: Record<ErasureKind, string> = {
  PersonalFields: 'Personal details',
  Recordings: 'Recordings',
  GpsFixes: 'GPS fixes',
  DeviceLogs: 'Device logs',
  ActivityRecords: 'Activity records',
  LedgerEntries: 'Capture ledger entries',
  SupervisionItems: 'Supervision items',
};

/** A job still works on the request: the decision walk (Recorded, Deciding) or the erasure (Approved, Erasing). */
export function isRunning(request: Pick<ErasureRequest, 'erasure_state'>): boolean {
  return ['Recorded', 'Deciding', 'Approved', 'Erasing'].includes(request.erasure_state);
}

/**
 * The decision exists (and so a picture and a table of it) once decided, whatever became of it since. A failed
 * erasure shows what it erased before it stopped; a decision that failed has no whole decision to show.
 */
export function hasDecision(request: Pick<ErasureRequest, 'erasure_state' | 'review'>): boolean {
  if (request.erasure_state === 'Failed') return request.review?.decision === 'Approve';
  return ['Decided', 'Approved', 'Rejected', 'Erasing', 'Completed'].includes(request.erasure_state);
}

export interface ErasureProgressView {
  /** "Deciding: 120 of 400 records looked at" */
  label: string;
  /** 0–100, or undefined while the total is not known yet (an indeterminate bar). */
  percent: number | undefined;
}

/** A running job's progress in words and as a share, or undefined when no job runs. */
export function progressOf(request: Pick<ErasureRequest, 'erasure_state' | 'progress'>): ErasureProgressView | undefined {
  if (!isRunning(request)) return undefined;
  const progress = request.progress;
  const erasing = request.erasure_state === 'Approved' || request.erasure_state === 'Erasing';
  const phase = erasing ? 'Erasing' : 'Deciding';
  const verb = erasing ? 'erased' : 'looked at';
  if (progress === undefined) return { label: `${phase}: starting`, percent: undefined };
  if (progress.total === undefined) return { label: `${phase}: ${formatNumber(progress.done)} records ${verb} so far`, percent: undefined };
  const percent = progress.total === 0 ? 100 : Math.min(100, Math.round((progress.done / progress.total) * 100));
  return { label: `${phase}: ${formatNumber(progress.done)} of ${formatNumber(progress.total)} records ${verb}`, percent };
}

/** Who asked, in words: "The person themself" or "A representative: Sam Lee". */
export function requesterWords(requester: ErasureRequester): string {
  return requester.type === 'DataSubject' ? 'The person themself' : `A representative: ${requester.name}`;
}

/**
 * A stored time as the UTC day it names: a received date is recorded as a day (midnight UTC), so a browser west of
 * Greenwich must not show it as the day before.
 */
export function dayOf(iso: string): string {
  return formatDate(`${iso.slice(0, 10)}T12:00:00Z`);
}

/** The person a request is about, by name where one is known, with their reference to tell namesakes apart. */
export function personWords(reference: string, name: string | undefined): string {
  return name === undefined || name.trim() === '' ? reference : `${name} (${reference})`;
}

/** A device user's name from their record's fields, undefined when the record names none (or they were destroyed). */
export function deviceUserName(user: { first_name?: string | undefined; surname?: string | undefined } | undefined): string | undefined {
  const name = [user?.first_name, user?.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? undefined : name;
}

/** The held target, in words: "the legal hold on device user du-chloe". */
export function holdWords(hold: { target_type: string; target: string }): string {
  const whom = hold.target_type === 'DeviceUser' ? 'device user' : hold.target_type === 'PortalUser' ? 'portal user' : hold.target_type;
  return `the legal hold on ${whom} ${hold.target}`;
}

/**
 * Why records are kept, in plain words, with the article: a legal hold keeps them for a claim (17(3)(e)), a
 * retention obligation keeps them until a date (17(3)(b)).
 */
export function keptWords(kept: ErasureKept, recordType?: RetentionRecordType): string {
  const count = `${formatNumber(kept.count)} kept`;
  if (kept.exception === 'LegalHold') {
    const holds = (kept.holds ?? []).map(holdWords);
    const under = holds.length === 0 ? 'a legal hold' : holds.join(' and ');
    const late = kept.held_after_decision === true ? ' (placed after the decision; it kept them when erasure ran)' : '';
    return `${count}: needed for legal claims, under ${under}${late} (GDPR Art ${kept.article}). Kept while the hold lasts.`;
  }
  const until = kept.kept_until === undefined ? '' : ` until ${formatDate(kept.kept_until)}`;
  const rule = kept.rule === undefined || kept.rule === '' ? '' : ` ${ruleWords(kept.rule, recordType)}.`;
  return `${count}: the law requires keeping them${until} (GDPR Art ${kept.article}).${rule}`;
}

/**
 * The retention rule as the decision states it (`DeviceUserData: deleted 2923 days after its time`), led by the record
 * type's name as the retention screen words it ("Device users: …") instead of its wire value.
 */
export function ruleWords(rule: string, recordType: RetentionRecordType | undefined): string {
  if (recordType === undefined || !rule.startsWith(recordType)) return rule;
  return `${RETENTION_RECORD_TYPE_LABELS[recordType]}${rule.slice(recordType.length)}`;
}

/** "1 record", "2 records". */
export function recordsWord(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'record' : 'records'}`;
}

/** How many records of a kind are kept, under any exception. */
export function keptCount(outcome: ErasureKindOutcome): number {
  return outcome.kept.reduce((sum, kept) => sum + kept.count, 0);
}

/** Erased (once run) or to be erased (decided, not run) records of a kind. */
export function erasedOrToErase(outcome: ErasureKindOutcome, state: ErasureState): number {
  return state === 'Completed' || state === 'Erasing' || state === 'Failed' ? outcome.erased : outcome.to_erase;
}

/** What the picture and its table call the erased part: erased once run, to be erased before, not erased if rejected. */
export function erasedSegmentLabel(state: ErasureState): string {
  if (state === 'Completed' || state === 'Erasing' || state === 'Failed') return 'Erased';
  if (state === 'Rejected') return 'Would have been erased';
  return 'To be erased';
}

/** One bar per kind that has records: erased (or to be erased) beside kept. Kinds with nothing about the person are left out. */
export function erasedAndKeptBars(request: Pick<ErasureRequest, 'outcomes' | 'erasure_state'>): { label: string; values: [number, number] }[] {
  return request.outcomes
    .filter((outcome) => outcome.found > 0 || outcome.erased > 0 || keptCount(outcome) > 0)
    .map((outcome) => ({ label: ERASURE_KIND_LABELS[outcome.kind], values: [erasedOrToErase(outcome, request.erasure_state), keptCount(outcome)] }));
}

/** Totals across kinds, for the report's first sentence. */
export function totalsOf(request: Pick<ErasureRequest, 'outcomes' | 'erasure_state'>): { erased: number; kept: number } {
  return request.outcomes.reduce(
    (sum, outcome) => ({ erased: sum.erased + erasedOrToErase(outcome, request.erasure_state), kept: sum.kept + keptCount(outcome) }),
    { erased: 0, kept: 0 },
  );
}

/** The erased records' dates, in words: "from 3 Jan 2025 to 2 Feb 2025", or "" when the outcome gives none. */
export function erasedSpan(outcome: ErasureKindOutcome): string {
  if (outcome.erased_from === undefined || outcome.erased_to === undefined) return '';
  const from = formatDate(outcome.erased_from);
  const to = formatDate(outcome.erased_to);
  return from === to ? `from ${from}` : `from ${from} to ${to}`;
}

/** The review a signed-in user may give, or the sentence saying why they may not. */
export type ReviewOffer = { kind: 'offer' } | { kind: 'refused'; why: string } | { kind: 'none' };

/**
 * Four eyes: a decided request is reviewed by a second person who may review erasure requests. The person who
 * recorded it is told why there is no button (the API refuses them too), as is a role without the permission.
 */
export function reviewOfferFor(request: Pick<ErasureRequest, 'erasure_state' | 'created_by'>, me: string | undefined, mayReview: boolean): ReviewOffer {
  if (request.erasure_state !== 'Decided') return { kind: 'none' };
  if (me !== undefined && me === request.created_by) {
    return {
      kind: 'refused',
      why: 'You recorded this request, so you cannot review it: a second person who may review erasure requests approves or rejects the decision.',
    };
  }
  if (!mayReview) return { kind: 'refused', why: 'Your roles do not allow reviewing erasure requests: someone who may review them approves or rejects the decision.' };
  return { kind: 'offer' };
}
