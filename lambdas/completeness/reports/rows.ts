import type { CompletenessOutcome, LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { CompletenessCounts, CompletenessRow } from '#shared/contract/entities/completeness.ts';
import { countsOf, sumCompletenessCounters, type CompletenessCountersItem } from '#core/store/entities/completeness-counters.ts';

/** The count an `outcome` filter looks at. */
const COUNT_OF_OUTCOME: Record<CompletenessOutcome, keyof Omit<CompletenessCounts, 'share_complete'>> = {
  Captured: 'captured',
  'Captured late': 'captured_late',
  Short: 'short',
  Pending: 'pending',
  Missing: 'missing',
  Unexpected: 'unexpected',
};

const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

/**
 * One row of a report from a counter item: its day, the labels of its cut (the group, device user and device it names)
 * and the counts of the payload types the caller may see.
 */
export function rowOf(item: CompletenessCountersItem, types: readonly LedgerPayloadType[]): CompletenessRow {
  return {
    day: item.day,
    ...optional('group', item.group),
    ...optional('device_user_reference', item.device_user_reference),
    ...optional('device_reference', item.device_reference),
    ...countsOf(item, types),
  };
}

/**
 * The tenant's row of a day for a caller who sees only some groups: the SUM of the group rows it may see (never the
 * tenant's own item, which counts every group's entries), for the payload types it may see.
 */
export function summedRow(day: string, items: readonly CompletenessCountersItem[], types: readonly LedgerPayloadType[], group?: string): CompletenessRow {
  return { day, ...optional('group', group), ...countsOf({ counters: sumCompletenessCounters(items) }, types) };
}

/**
 * Whether a row is shown: it counts something the caller may see (a day whose counts are all of other payload types
 * shows as no row, not as a row of zeros), and, with an `outcome` filter, at least one of that outcome.
 */
export function rowShown(row: CompletenessCounts, outcome: CompletenessOutcome | undefined): boolean {
  if (row.expected === 0 && row.unexpected === 0) return false;
  return outcome === undefined || row[COUNT_OF_OUTCOME[outcome]] > 0;
}
