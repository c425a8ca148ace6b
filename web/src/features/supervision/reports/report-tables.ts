import { SUPERVISION_DISPOSITIONS } from '#shared/constants/supervision.ts';
import type { SupervisionReportResponse } from '#shared/contract/entities/supervision.ts';
import type { StackedBarDatum } from '../../../components/charts/stacked-bar-chart.tsx';
import type { BarDatum } from '../../../components/charts/bar-chart.tsx';
import { actorName } from '../../../lib/actor-name.ts';
import type { CsvColumn } from '../../../lib/csv.ts';
import { formatDate } from '../../../lib/format.ts';
import type { SupervisionReport } from '#shared/constants/supervision.ts';

/**
 * The three supervision reports as tables (each column's CSV value is what the table shows, so "Export CSV" writes
 * exactly the rows shown) and as chart data. People are named as the item kept them; a row without a name shows its
 * reference, never a guess.
 */
type Report<K extends SupervisionReportResponse['report']> = Extract<SupervisionReportResponse, { report: K }>;
export type OutstandingRow = Report<'outstanding'>['rows'][number];
export type OutcomeRow = Report<'outcomes'>['policies'][number];
export type TermOutcomeRow = Report<'outcomes'>['terms'][number];
export type ReviewerRow = Report<'reviewers'>['rows'][number];

export const AGE_BUCKETS = ['0-7', '8-30', '31+'] as const;
export const AGE_LABELS: Record<(typeof AGE_BUCKETS)[number], string> = { '0-7': '0–7 days', '8-30': '8–30 days', '31+': '31 days or more' };

/** The supervised person by name, else by reference; an item without a device user says so. */
export function personOf(row: Pick<OutstandingRow, 'device_user_name' | 'device_user_reference'>): string {
  return row.device_user_name ?? row.device_user_reference ?? 'No device user';
}

export const OUTSTANDING_COLUMNS: readonly CsvColumn<OutstandingRow>[] = [
  { header: 'Person', value: personOf },
  { header: 'Device user', value: (row) => row.device_user_reference ?? '' },
  { header: 'Policy', value: (row) => row.policy_reference },
  { header: 'Open', value: (row) => row.open },
  { header: 'Claimed', value: (row) => row.claimed },
  { header: 'Escalated', value: (row) => row.escalated },
  { header: 'Overdue', value: (row) => row.overdue },
  ...AGE_BUCKETS.map((bucket) => ({ header: AGE_LABELS[bucket], value: (row: OutstandingRow) => row.age_days[bucket] })),
  { header: 'Oldest raised', value: (row) => row.oldest_raised_at ?? '' },
];

/** Outstanding items per person (every policy together), stacked by age; the oldest work first. */
export function outstandingByAge(rows: readonly OutstandingRow[]): StackedBarDatum[] {
  const people = new Map<string, number[]>();
  for (const row of rows) {
    const key = row.device_user_reference === undefined ? personOf(row) : `${personOf(row)}${row.device_user_name === undefined ? '' : ` (${row.device_user_reference})`}`;
    const values = people.get(key) ?? AGE_BUCKETS.map(() => 0);
    AGE_BUCKETS.forEach((bucket, index) => (values[index] = (values[index] ?? 0) + row.age_days[bucket]));
    people.set(key, values);
  }
  return [...people.entries()]
    .map(([label, values]) => ({ label, values }))
    .sort((a, b) => (b.values[2] ?? 0) - (a.values[2] ?? 0) || (b.values[1] ?? 0) - (a.values[1] ?? 0) || (b.values[0] ?? 0) - (a.values[0] ?? 0) || a.label.localeCompare(b.label));
}

/** A false-positive share as the table and CSV show it: a percentage to one decimal, or empty when nothing is closed. */
export function shareText(share: number | undefined): string {
  return share === undefined ? '' : `${(share * 100).toFixed(1)} %`;
}

const outcomeColumns = <T extends OutcomeRow>(): CsvColumn<T>[] => [
  { header: 'Hits', value: (row) => row.hits },
  { header: 'Closed', value: (row) => row.closed },
  ...SUPERVISION_DISPOSITIONS.map((disposition) => ({ header: disposition, value: (row: T) => row.dispositions[disposition] })),
  { header: 'False positive share', value: (row) => shareText(row.false_positive_share) },
];

export const POLICY_OUTCOME_COLUMNS: readonly CsvColumn<OutcomeRow>[] = [{ header: 'Policy', value: (row) => row.policy_reference }, ...outcomeColumns<OutcomeRow>()];

export const TERM_OUTCOME_COLUMNS: readonly CsvColumn<TermOutcomeRow>[] = [
  { header: 'Policy', value: (row) => row.policy_reference },
  { header: 'Term', value: (row) => row.term },
  ...outcomeColumns<TermOutcomeRow>(),
];

/** The false-positive share of each row with something closed, in percent (one decimal), as bars. */
export function falsePositiveBars<T extends OutcomeRow>(rows: readonly T[], label: (row: T) => string): BarDatum[] {
  return rows.flatMap((row) => (row.false_positive_share === undefined ? [] : [{ label: label(row), value: Math.round(row.false_positive_share * 1000) / 10 }]));
}

export const REVIEWER_COLUMNS: readonly CsvColumn<ReviewerRow>[] = [
  { header: 'Reviewer', value: (row) => actorName(row.reviewer_actor, row.reviewer) },
  { header: 'Items closed', value: (row) => row.closed },
  { header: 'Median hours to close', value: (row) => Math.round(row.median_hours_to_close * 10) / 10 },
];

/**
 * What a report counts over the period, as the server reads it (lambdas/supervision/reports/reports.ts): outstanding
 * is every item not closed now, narrowed to those raised in the period only when one is given; outcomes are the items
 * whose recording's time is in the period, reviewers the items closed in it, both the last 30 days when none is given.
 */
export function periodNote(report: SupervisionReport, period: { from?: string | undefined; to?: string | undefined }): string {
  const given = period.from !== undefined || period.to !== undefined;
  const range =
    period.from !== undefined && period.to !== undefined
      ? `from ${formatDate(period.from)} to ${formatDate(period.to)}`
      : period.from !== undefined
        ? `from ${formatDate(period.from)} on`
        : `up to ${formatDate(period.to)}`;
  const days = given ? ' (UTC days, both ends included)' : '';
  switch (report) {
    case 'outstanding':
      return `Items not closed now, raised ${given ? range : 'at any time'}${days}.`;
    case 'outcomes':
      return `Items whose recording's time is ${given ? range : 'in the last 30 days'}${days}.`;
    default:
      return `Items closed ${given ? range : 'in the last 30 days'}${days}.`;
  }
}
