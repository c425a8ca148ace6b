import { formatNumber } from '../../lib/format.ts';

/** The days the export form chose, as the API's period: `from` at 00:00 UTC, `to` the day after the last (exclusive). */
export function exportPeriodOf(fromDay: string | undefined, toDay: string | undefined): { from: string; to: string } | undefined {
  if (fromDay === undefined || toDay === undefined) return undefined;
  const from = Date.parse(`${fromDay}T00:00:00Z`);
  const lastDay = Date.parse(`${toDay}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(lastDay)) return undefined;
  // The API reads `to` as exclusive and the filter's days as inclusive: the chosen last day is exported whole.
  return { from: new Date(from).toISOString().replace('.000Z', 'Z'), to: new Date(lastDay + 24 * 60 * 60_000).toISOString().replace('.000Z', 'Z') };
}

/** "1,204 of 5,000 records written (24%)": an export's progress in words, and its share for the bar. */
export function exportProgress(written: number, total: number): { share: number; words: string } {
  const share = total === 0 ? 0 : Math.min(100, Math.floor((written / total) * 100));
  const of = total === 0 ? 'counting the records' : `${formatNumber(written)} of ${formatNumber(total)} records written (${share}%)`;
  return { share, words: of };
}
