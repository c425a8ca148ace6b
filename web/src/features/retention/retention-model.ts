import { RETENTION_RECORD_TYPES, type RetentionRecordType, type RetentionTimestampType } from '#shared/constants/account.ts';
import { PAYLOAD_TYPES, TRANSFERABLE_PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { RetentionPolicy, RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import { REGULATORY_RULE_NAMES, REGULATORY_RULES, type RegulatoryRule } from '#shared/constants/regulatory-rules.ts';
import { formatNumber } from '../../lib/format.ts';

/**
 * The retention editor's model: the stored policy as form values (a blank period means "kept without end"), back to
 * the request body, and in words (days shown also as years and months, what changed and whether it shortens).
 */

/** The record types with one pair of periods each; PayloadData has one entry per payload type instead. */
export const RECORD_TYPES = RETENTION_RECORD_TYPES.filter((type): type is Exclude<RetentionRecordType, 'PayloadData'> => type !== 'PayloadData');
export type RecordType = (typeof RECORD_TYPES)[number];

/** A period in whole days, or '' for none (the record is kept without end). */
export type Days = number | '';

export interface PeriodValues {
  delete_after_days: Days;
  destroy_after_days: Days;
}

export interface PayloadValues extends PeriodValues {
  payload_type: PayloadType;
  retention_timestamp: RetentionTimestampType;
  required_receipts: number;
  required_transfers: number;
}

export interface RetentionValues {
  records: Record<RecordType, PeriodValues>;
  /** In PAYLOAD_TYPES order, every payload type once: the request's indexes (`body.PayloadData.3`) name these rows. */
  payloads: PayloadValues[];
  /** The regulatory rules the tenant is under (none: no box ticked), in REGULATORY_RULES order. */
  rules: RegulatoryRule[];
}

const TRANSFERABLE = new Set<PayloadType>(TRANSFERABLE_PAYLOAD_TYPES);

/** Is this payload type ever transferred? (Only then may it demand transfers or count from transferred_at.) */
export const isTransferable = (type: PayloadType) => TRANSFERABLE.has(type);

const daysOf = (value: number | undefined): Days => value ?? '';

/** The form's values for a stored (complete) policy; anything missing shows blank, as the server reads it. */
export function retentionValuesOf(policy: RetentionPolicy): RetentionValues {
  const records = Object.fromEntries(
    RECORD_TYPES.map((type) => {
      const periods = policy[type] ?? {};
      return [type, { delete_after_days: daysOf(periods.delete_after_days), destroy_after_days: daysOf(periods.destroy_after_days) }];
    }),
  ) as Record<RecordType, PeriodValues>;
  const stored = new Map((policy.PayloadData ?? []).map((entry) => [entry.payload_type, entry]));
  const payloads = PAYLOAD_TYPES.map((type): PayloadValues => {
    const entry = stored.get(type);
    return {
      payload_type: type,
      delete_after_days: daysOf(entry?.delete_after_days),
      destroy_after_days: daysOf(entry?.destroy_after_days),
      retention_timestamp: entry?.retention_timestamp ?? 'payload_time',
      required_receipts: entry?.required_receipts ?? 0,
      required_transfers: entry?.required_transfers ?? 0,
    };
  });
  return { records, payloads, rules: REGULATORY_RULES.filter((rule) => (policy.regulatory_rules ?? []).includes(rule)) };
}

const periodsOf = (values: PeriodValues) => ({
  ...(values.delete_after_days === '' ? {} : { delete_after_days: values.delete_after_days }),
  ...(values.destroy_after_days === '' ? {} : { destroy_after_days: values.destroy_after_days }),
});

/** The request body: every record type and every payload type (in PAYLOAD_TYPES order), so nothing falls back to a default unseen. */
export function retentionRequestOf(values: RetentionValues): RetentionPolicyRequest {
  const records = Object.fromEntries(RECORD_TYPES.map((type) => [type, periodsOf(values.records[type])]));
  return {
    ...records,
    PayloadData: values.payloads.map((entry) => ({
      payload_type: entry.payload_type,
      ...periodsOf(entry),
      retention_timestamp: entry.retention_timestamp,
      required_receipts: entry.required_receipts,
      required_transfers: entry.required_transfers,
    })),
    // Always sent: an editor that shows the rules says which it means (none ticked is `[]`, not "as stored").
    regulatory_rules: values.rules,
  };
}

const DAYS_PER_YEAR = 365.25;
const DAYS_PER_MONTH = DAYS_PER_YEAR / 12;

const plural = (count: number, word: string) => `${formatNumber(count)} ${word}${count === 1 ? '' : 's'}`;

/**
 * A period for people: "kept without end" for none, days under two months, otherwise years and months to the nearest
 * month ("7 years", "7 years 3 months", "about 3 months" where the rounding is more than a few days off).
 */
export function describeDays(days: Days): string {
  if (days === '') return 'kept without end';
  if (days === 0) return 'at once';
  if (days < 61) return plural(days, 'day');
  const months = Math.round(days / DAYS_PER_MONTH);
  const years = Math.floor(months / 12);
  const rest = months % 12;
  const words = [years > 0 ? plural(years, 'year') : '', rest > 0 ? plural(rest, 'month') : ''].filter(Boolean).join(' ');
  const exact = Math.abs(months * DAYS_PER_MONTH - days) <= 3;
  return exact ? words : `about ${words}`;
}

/** Which way a period moved: a shorter one makes records due sooner (none counts as endless). */
export function periodChange(before: Days, after: Days): 'same' | 'shorter' | 'longer' {
  if (before === after) return 'same';
  if (before === '') return 'shorter';
  if (after === '') return 'longer';
  return after < before ? 'shorter' : 'longer';
}

/** One line of the review: which row and field changed, from what to what. */
export interface RetentionChange {
  /** "Alert data" or "Payload data: Call". */
  row: string;
  field: string;
  before: string;
  after: string;
  shortens: boolean;
}

const PERIOD_FIELDS = [
  ['delete_after_days', 'Delete after'],
  ['destroy_after_days', 'Destroy after'],
] as const;

const daysText = (days: Days) => (days === '' ? 'never' : `${plural(days, 'day')} (${describeDays(days)})`);

function periodChanges(row: string, before: PeriodValues, after: PeriodValues): RetentionChange[] {
  return PERIOD_FIELDS.flatMap(([field, label]) => {
    const change = periodChange(before[field], after[field]);
    return change === 'same' ? [] : [{ row, field: label, before: daysText(before[field]), after: daysText(after[field]), shortens: change === 'shorter' }];
  });
}

/** Every difference between the stored values and the edited ones, in the editor's order. */
export function retentionChanges(
  before: RetentionValues,
  after: RetentionValues,
  labels: { record: (type: RecordType) => string; payload: (type: PayloadType) => string; timestamp: (type: RetentionTimestampType) => string },
): RetentionChange[] {
  const changes = RECORD_TYPES.flatMap((type) => periodChanges(labels.record(type), before.records[type], after.records[type]));
  after.payloads.forEach((entry, index) => {
    const old = before.payloads[index];
    if (old === undefined) return;
    const row = `Payload data: ${labels.payload(entry.payload_type)}`;
    changes.push(...periodChanges(row, old, entry));
    if (old.retention_timestamp !== entry.retention_timestamp) {
      changes.push({ row, field: 'Counted from', before: labels.timestamp(old.retention_timestamp), after: labels.timestamp(entry.retention_timestamp), shortens: false });
    }
    for (const [field, label] of [
      ['required_receipts', 'Receipts required'],
      ['required_transfers', 'Transfers required'],
    ] as const) {
      // Fewer receipts or transfers demanded lets records go sooner, as a shorter period does.
      if (old[field] !== entry[field]) changes.push({ row, field: label, before: String(old[field]), after: String(entry[field]), shortens: entry[field] < old[field] });
    }
  });
  // A rule removed lowers the floor (it needs a second approver, as a shorter period does); one added raises it.
  const had = new Set(before.rules);
  const has = new Set(after.rules);
  for (const rule of REGULATORY_RULES) {
    if (had.has(rule) === has.has(rule)) continue;
    const removed = had.has(rule);
    changes.push({ row: 'Regulatory rules', field: REGULATORY_RULE_NAMES[rule], before: removed ? 'under it' : 'not under it', after: removed ? 'not under it' : 'under it', shortens: removed });
  }
  return changes;
}

/** Does any PayloadData change make recordings go sooner? (Object Lock in compliance mode keeps existing ones.) */
export const shortensRecordings = (changes: readonly RetentionChange[]) => changes.some((change) => change.shortens && change.row.startsWith('Payload data'));

/** The form field a wire path names: `records.AlertData.delete_after_days` or `payloads.3.required_receipts`. */
export type RetentionField = `records.${RecordType}.${keyof PeriodValues}` | `payloads.${number}.${keyof Omit<PayloadValues, 'payload_type'>}`;

/**
 * Wire paths of every input, for `formErrorsOf`: a line such as `body.PayloadData.3.required_transfers: …` goes beside
 * that input; one naming a whole row (`body.AlertData: …`) beside its first input.
 */
export function retentionFieldPaths(): Record<RetentionField, string | string[]> {
  const paths: Record<string, string | string[]> = {};
  for (const type of RECORD_TYPES) {
    paths[`records.${type}.delete_after_days`] = [`body.${type}.delete_after_days`, `body.${type}`];
    paths[`records.${type}.destroy_after_days`] = `body.${type}.destroy_after_days`;
  }
  PAYLOAD_TYPES.forEach((_, index) => {
    const base = `body.PayloadData.${index}`;
    paths[`payloads.${index}.delete_after_days`] = [`${base}.delete_after_days`, base, `${base}.payload_type`];
    for (const field of ['destroy_after_days', 'retention_timestamp', 'required_receipts', 'required_transfers'] as const) {
      paths[`payloads.${index}.${field}`] = `${base}.${field}`;
    }
  });
  return paths as Record<RetentionField, string | string[]>;
}
