import type { CompletenessOutcome } from '#shared/constants/completeness.ts';
import type { CompletenessCounts, CompletenessEntry, CompletenessRow } from '#shared/contract/entities/completeness.ts';
import type { BarDatum } from '../../components/charts/bar-chart.tsx';
import type { CsvColumn } from '../../lib/csv.ts';
import { formatDuration } from '../../lib/format.ts';
import { COMPLETENESS_OUTCOME_LABELS, DIRECTION_LABELS, labelOf, PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';

/**
 * Capture completeness in words and numbers for the report, the panels and their CSV files. Every count shown is a
 * count the server answered (never one guessed here); the only arithmetic is summing a cut's days over the period,
 * with the server's rule for the share: (captured + captured late) over the entries past Pending, none when that is 0.
 */

/** Days a report spans when the URL names no period: the last 30, today included (UTC). */
export const DEFAULT_PERIOD_DAYS = 30;

const DAY_MS = 86_400_000;

/** A UTC day as `YYYY-MM-DD`. */
export function utcDay(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * The period the report reads: the URL's days, else the last 30 days to today. A missing end is filled in, so the
 * screen always says (and asks for) exactly the days it shows.
 */
export function periodOf(search: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  const to = search.to ?? (search.from !== undefined && search.from > utcDay(now) ? search.from : utcDay(now));
  const from = search.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS);
  return { from, to };
}

type Counters = Omit<CompletenessCounts, 'share_complete'>;
const COUNTERS = ['expected', 'captured', 'captured_late', 'short', 'pending', 'missing', 'unexpected'] as const satisfies readonly (keyof Counters)[];

/** The share complete of some counts: (captured + captured late) / (expected − pending); undefined when that is 0. */
export function shareOf(counts: Counters): number | undefined {
  const settled = counts.expected - counts.pending;
  return settled > 0 ? (counts.captured + counts.captured_late) / settled : undefined;
}

/** Counts of several rows (days) together, with their share by the same rule. */
export function sumCounts(rows: readonly Counters[]): CompletenessCounts {
  const total: Counters = { expected: 0, captured: 0, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0 };
  for (const row of rows) for (const counter of COUNTERS) total[counter] += row[counter];
  const share = shareOf(total);
  return share === undefined ? total : { ...total, share_complete: share };
}

/** "97.5 %"; a day with nothing settled yet has no share ("—"), never 0 % or 100 %. */
export function shareText(share: number | undefined): string {
  return share === undefined ? '—' : `${(Math.floor(share * 1000) / 10).toFixed(1)} %`;
}

/** A share as the charts draw it: percent to one decimal, rounded down so 99.96 % never shows as 100. */
export function sharePercent(share: number): number {
  return Math.floor(share * 1000) / 10;
}

/** The tenant's share per day, oldest first, for the days that have one (a day with nothing settled is not a 0). */
export function dailyShares(rows: readonly CompletenessRow[]): { days: string[]; values: number[] } {
  const days: string[] = [];
  const values: number[] = [];
  for (const row of [...rows].sort((a, b) => a.day.localeCompare(b.day))) {
    if (row.share_complete === undefined) continue;
    days.push(row.day);
    values.push(sharePercent(row.share_complete));
  }
  return { days, values };
}

/** Who a row is about, in words: the person's or device's name, the group, else the reference, never a guess. */
export function cutName(row: Pick<CompletenessRow, 'group' | 'device_user_reference' | 'device_user_name' | 'device_reference' | 'device_model'>): string {
  if (row.device_user_reference !== undefined) return row.device_user_name ?? row.device_user_reference;
  if (row.device_reference !== undefined) return row.device_model ?? row.device_reference;
  return row.group ?? 'No group';
}

/** Each group's share over the period (its days summed), the lowest first: where capture fails most is on top. */
export function groupShares(rows: readonly CompletenessRow[]): BarDatum[] {
  const byGroup = new Map<string, CompletenessRow[]>();
  for (const row of rows) {
    const name = cutName(row);
    byGroup.set(name, [...(byGroup.get(name) ?? []), row]);
  }
  return [...byGroup.entries()]
    .flatMap(([label, days]) => {
      const share = sumCounts(days).share_complete;
      return share === undefined ? [] : [{ label, value: sharePercent(share) }];
    })
    .sort((a, b) => a.value - b.value || a.label.localeCompare(b.label));
}

/** The key of one row: its day and the cut it names. */
export function rowKey(row: CompletenessRow): string {
  return [row.day, row.group ?? '', row.device_user_reference ?? '', row.device_reference ?? ''].join('\u0000');
}

/**
 * The rows of people (or devices) with gaps, gaps first: the most missing first, then the most short, then the newest
 * day, then by name. Rows asked for with two outcome filters (Missing, Short) may repeat: each day of each cut once.
 */
export function gapsFirst(rows: readonly CompletenessRow[]): CompletenessRow[] {
  const unique = new Map<string, CompletenessRow>();
  for (const row of rows) unique.set(rowKey(row), row);
  return [...unique.values()].sort(
    (a, b) => b.missing - a.missing || b.short - a.short || b.day.localeCompare(a.day) || cutName(a).localeCompare(cutName(b)),
  );
}

/** The counts columns every report table shares (after its own naming columns); each CSV value is what is shown. */
export function countColumns<T extends CompletenessRow>(): CsvColumn<T>[] {
  return [
    { header: 'Expected', value: (row) => row.expected },
    { header: 'Captured', value: (row) => row.captured },
    { header: 'Captured late', value: (row) => row.captured_late },
    { header: 'Short', value: (row) => row.short },
    { header: 'Pending', value: (row) => row.pending },
    { header: 'Missing', value: (row) => row.missing },
    { header: 'Unexpected', value: (row) => row.unexpected },
    { header: 'Share complete', value: (row) => shareText(row.share_complete) },
  ];
}

/** The counter behind each count column, for its drill-down to the entries of that outcome. */
export const COUNT_OUTCOMES: Readonly<Record<string, CompletenessOutcome | undefined>> = {
  Expected: undefined,
  Captured: 'Captured',
  'Captured late': 'Captured late',
  Short: 'Short',
  Pending: 'Pending',
  Missing: 'Missing',
  Unexpected: 'Unexpected',
};

/** The naming columns of a report table by its cut. */
export function nameColumns(by: 'tenant' | 'group' | 'device_user' | 'device'): CsvColumn<CompletenessRow>[] {
  const day: CsvColumn<CompletenessRow> = { header: 'Day', value: (row) => row.day };
  switch (by) {
    case 'group':
      return [day, { header: 'Group', value: (row) => row.group ?? 'No group' }];
    case 'device_user':
      return [day, { header: 'Person', value: cutName }, { header: 'Device user', value: (row) => row.device_user_reference ?? '' }];
    case 'device':
      return [day, { header: 'Device', value: cutName }, { header: 'Device reference', value: (row) => row.device_reference ?? '' }];
    default:
      return [day];
  }
}

/** A call's or message's other party: its number, else its thread (group threads may have no number). */
export function partyOf(entry: Pick<CompletenessEntry, 'phone_number' | 'thread_id'>): string {
  return entry.phone_number ?? (entry.thread_id === undefined ? 'Unknown number' : `Thread ${entry.thread_id}`);
}

const isCall = (entry: Pick<CompletenessEntry, 'payload_type'>) => entry.payload_type === 'Call' || entry.payload_type === 'AbortedCall' || entry.payload_type === 'BlockedCall';

/**
 * One entry in one line, as the recordings lists show a missing one where its recording would have been:
 * "Missing call: +44 7700 900123, outgoing, 3:00, not recorded". Only what the entry says.
 */
export function entryLine(entry: CompletenessEntry): string {
  const what = isCall(entry) ? 'call' : labelOf(PAYLOAD_TYPE_LABELS, entry.payload_type);
  const parts = [partyOf(entry)];
  if (entry.direction !== undefined) parts.push(DIRECTION_LABELS[entry.direction].toLowerCase());
  if (isCall(entry) && entry.duration !== undefined) parts.push(formatDuration(entry.duration));
  const state =
    entry.outcome === 'Missing'
      ? 'not recorded'
      : entry.outcome === 'Pending'
        ? 'not recorded yet'
        : entry.outcome === 'Short'
          ? `recorded ${formatDuration(entry.recording_duration)}${entry.is_intermittent === true ? ', intermittent' : ''}`
          : entry.outcome === 'Unexpected'
            ? 'recorded, not in the phone’s ledger'
            : 'recorded';
  return `${labelOf(COMPLETENESS_OUTCOME_LABELS, entry.outcome)} ${what}: ${parts.join(', ')}, ${state}`;
}

/** The entries table and its CSV (the person's ledger export): the entry's facts, its outcome and its recording. */
export const ENTRY_COLUMNS: readonly CsvColumn<CompletenessEntry>[] = [
  { header: 'Time', value: (entry) => entry.start_time },
  { header: 'Type', value: (entry) => labelOf(PAYLOAD_TYPE_LABELS, entry.payload_type) },
  { header: 'Direction', value: (entry) => (entry.direction === undefined ? '' : DIRECTION_LABELS[entry.direction]) },
  { header: 'Number', value: (entry) => entry.phone_number ?? '' },
  { header: 'Thread', value: (entry) => entry.thread_id ?? '' },
  { header: 'Call length', value: (entry) => (entry.duration === undefined ? '' : formatDuration(entry.duration)) },
  { header: 'Outcome', value: (entry) => labelOf(COMPLETENESS_OUTCOME_LABELS, entry.outcome) },
  { header: 'Recording length', value: (entry) => (entry.recording_duration === undefined ? '' : formatDuration(entry.recording_duration)) },
  { header: 'Intermittent', value: (entry) => (entry.is_intermittent === true ? 'yes' : '') },
  { header: 'Recording', value: (entry) => entry.payload_reference ?? '' },
  { header: 'Uploaded', value: (entry) => entry.uploaded_at ?? '' },
  { header: 'Person', value: (entry) => entry.device_user_name ?? entry.device_user_reference ?? '' },
  { header: 'Device', value: (entry) => entry.device_model ?? entry.device_reference },
  { header: 'Group', value: (entry) => entry.group ?? '' },
  { header: 'Entry id', value: (entry) => entry.entry_id ?? '' },
  { header: 'Reported', value: (entry) => entry.reported_at ?? '' },
  { header: 'Due', value: (entry) => entry.due_at ?? '' },
];

/** The Mantine colour of an outcome's badge: settled well green, late yellow, gaps red, waiting grey. */
export const OUTCOME_COLOURS: Record<CompletenessOutcome, string> = {
  Captured: 'green',
  'Captured late': 'yellow',
  Short: 'orange',
  Pending: 'gray',
  Missing: 'red',
  Unexpected: 'grape',
};

/** A file name for a download: lower case words joined by dashes. */
export function fileNameOf(...parts: string[]): string {
  return `${parts.join(' ').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.csv`;
}
