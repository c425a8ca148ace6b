import { LEDGER_FUTURE_SKEW_SECONDS } from '#shared/constants/completeness.ts';
import type { LedgerEntryReport, LedgerReport } from '#shared/contract/entities/completeness.ts';
import type { LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { utcOf } from '../../device-data/public.ts';

/** A reported entry with its times as ISO UTC (what keys sort by and facts compare on). */
export type ReportedEntry = LedgerEntryReport & { start_time: string };

/** The report's times as ISO UTC (`start_time` without a zone is UTC, as every device time), and what is refused. */
export function readReportTimes(report: LedgerReport, now: Date): { coveredTo: string; entries: ReportedEntry[]; problems: string[] } {
  const latest = now.getTime() + LEDGER_FUTURE_SKEW_SECONDS * 1000;
  const problems: string[] = [];
  const timeOf = (value: string, path: string): string => {
    const utc = utcOf(value);
    if (utc === undefined) problems.push(`${path}: Must be an ISO date like 1999-01-01T16:50:00Z`);
    else if (Date.parse(utc) > latest) problems.push(`${path}: Must not be in the future`);
    return utc ?? value;
  };
  const coveredTo = timeOf(report.covered_to, 'meta.covered_to');
  const entries = report.entries.map((entry, index) => ({ ...entry, start_time: timeOf(entry.start_time, `meta.entries.${index}.start_time`) }));
  return { coveredTo, entries, problems };
}

/** The facts of an entry as the phone reported them (what a resend must repeat), field by field. */
function factsOf(entry: Pick<LedgerEntryItem, 'payload_type' | 'direction' | 'start_time'> & { phone_number?: string | undefined; thread_id?: string | undefined; duration?: number | undefined }) {
  return [entry.payload_type, entry.direction, entry.start_time, entry.phone_number ?? null, entry.thread_id ?? null, entry.duration ?? null];
}

/** Whether a stored entry holds the same facts as a reported one: a resend, not a different call under the same id. */
export function sameFacts(stored: LedgerEntryItem, reported: ReportedEntry): boolean {
  const [a, b] = [factsOf(stored), factsOf(reported)];
  return a.every((value, index) => value === b[index]);
}
