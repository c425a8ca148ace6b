import type { ErasureKept, ErasureKind, ErasureKindOutcome } from '#shared/contract/entities/erasure-requests.ts';
import type { RetentionRecordType } from '#shared/constants/account.ts';
import type { HoldTarget } from '../legal-holds/coverage.ts';
import type { RetentionRule } from '../retention/retention-rules.ts';

/**
 * The erasure decision for one record about a person (docs/erasure.md), with retention's own facts: the active legal
 * hold that covers it (legal-holds/coverage.ts, as the retention job asks), and the rule of its record type with the
 * record's own base time (retention-rules.ts, due-index.ts). No write, no read: the walk gathers the facts.
 *
 * - under an active legal hold → kept, GDPR 17(3)(e), naming the hold;
 * - a record that has not ended (an onboarded person, a person still holding a device) → kept, 17(3)(b): retention
 *   itself would not dispose of it yet, and its period has not started;
 * - within its retention period → kept under the legal obligation until the day retention would first dispose of it
 *   (its delete period, else its destroy period), 17(3)(b), naming the record type and the rule;
 * - a rule whose period counts from a time the record does not have yet (a recording not transferred) → kept, 17(3)(b),
 *   with no date: the period has not started;
 * - past its period, or under no period at all → erased.
 */

export const ARTICLE = { LegalHold: '17(3)(e)', LegalObligation: '17(3)(b)' } as const;

const DAY_MS = 86_400_000;

/** The facts the decision needs about one record. */
export interface RecordFacts {
  /** The active hold that keeps it, if any. */
  hold?: HoldTarget | undefined;
  /** Why the record has not ended yet (it has no due marker): undefined once it has. */
  notEnded?: string | undefined;
  /** The rule of its record type (and payload type); undefined when the policy has none for it. */
  rule?: RetentionRule | undefined;
  /** The times its periods may count from, by kind (due-index.ts `bases`). */
  bases?: Record<string, string> | undefined;
  /** The time the decision judges at (ISO 8601). */
  now: string;
}

export type RecordVerdict =
  | { verdict: 'erase' }
  | { verdict: 'kept'; exception: 'LegalHold'; hold: HoldTarget }
  | { verdict: 'kept'; exception: 'LegalObligation'; rule: string; until?: string | undefined };

/** The rule in words, as the report prints it: `GpsData: deleted 365 days after its time`. */
export function ruleInWords(rule: RetentionRule): string {
  const subject = rule.payloadType === undefined ? rule.recordType : `${rule.recordType} (${rule.payloadType})`;
  const from = rule.kind === 'at' ? 'its time' : rule.kind;
  const periods = [
    ...(rule.deleteAfterDays === undefined ? [] : [`deleted ${rule.deleteAfterDays} days`]),
    ...(rule.destroyAfterDays === undefined ? [] : [`destroyed ${rule.destroyAfterDays} days`]),
  ];
  return `${subject}: ${periods.join(', ')} after ${from}`;
}

/** The first disposal period of a rule: the delete period, else the destroy period; undefined when it keeps forever. */
function firstPeriodDays(rule: RetentionRule): number | undefined {
  return rule.deleteAfterDays ?? rule.destroyAfterDays;
}

export function decideRecord(facts: RecordFacts): RecordVerdict {
  if (facts.hold !== undefined) return { verdict: 'kept', exception: 'LegalHold', hold: facts.hold };
  if (facts.notEnded !== undefined) return { verdict: 'kept', exception: 'LegalObligation', rule: facts.notEnded };
  const { rule } = facts;
  const days = rule === undefined ? undefined : firstPeriodDays(rule);
  if (rule === undefined || days === undefined) return { verdict: 'erase' };
  const base = facts.bases?.[rule.kind];
  if (base === undefined) return { verdict: 'kept', exception: 'LegalObligation', rule: `${ruleInWords(rule)} (not reached yet)` };
  const until = new Date(Date.parse(base) + days * DAY_MS).toISOString();
  if (until > facts.now) return { verdict: 'kept', exception: 'LegalObligation', rule: ruleInWords(rule), until };
  return { verdict: 'erase' };
}

/** An empty outcome for one kind. */
export function emptyOutcome(kind: ErasureKind, recordType: RetentionRecordType): ErasureKindOutcome {
  return { kind, record_type: recordType, found: 0, to_erase: 0, erased: 0, kept: [] };
}

const holdKey = (hold: { target_type: string; target: string }) => `${hold.target_type}/${hold.target}`;

/**
 * Adds one kept record to a kind's outcome: kept records are aggregated by exception and hold (or rule), each group
 * with its count and its latest "kept until" date, so a person with a million recordings is still one small item.
 */
export function addKept(outcome: ErasureKindOutcome, verdict: Extract<RecordVerdict, { verdict: 'kept' }>, afterDecision = false): void {
  const same = (entry: ErasureKept) =>
    entry.exception === verdict.exception &&
    (entry.held_after_decision ?? false) === afterDecision &&
    (verdict.exception === 'LegalHold' ? entry.holds?.some((hold) => holdKey(hold) === `${verdict.hold.targetType}/${verdict.hold.target}`) === true : entry.rule === verdict.rule);
  let entry = outcome.kept.find(same);
  if (entry === undefined) {
    entry = {
      exception: verdict.exception,
      article: ARTICLE[verdict.exception],
      count: 0,
      ...(verdict.exception === 'LegalHold' ? { holds: [{ target_type: verdict.hold.targetType, target: verdict.hold.target }] } : { rule: verdict.rule }),
      ...(afterDecision ? { held_after_decision: true } : {}),
    };
    outcome.kept.push(entry);
  }
  entry.count += 1;
  if (verdict.exception === 'LegalObligation' && verdict.until !== undefined && (entry.kept_until === undefined || verdict.until > entry.kept_until)) {
    entry.kept_until = verdict.until;
  }
}

/** Widens a kind's erased period by one erased record's time. */
export function addErasedTime(outcome: ErasureKindOutcome, time: string | undefined): void {
  if (time === undefined) return;
  if (outcome.erased_from === undefined || time < outcome.erased_from) outcome.erased_from = time;
  if (outcome.erased_to === undefined || time > outcome.erased_to) outcome.erased_to = time;
}
