import { COMPLETENESS_PERIOD_DAYS_MAX } from '#shared/constants/completeness.ts';
import { ValidationError } from '#core/errors.ts';
import { isoOf } from '#core/store/time-range.ts';

const DAY_MS = 86_400_000;
/** A report's period when the caller gives none: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;

/** The period of a completeness report as the server reads it: UTC days and the matching instants. */
export interface ReportPeriod {
  /** First day (YYYY-MM-DD), inclusive. */
  fromDay: string;
  /** Last day (YYYY-MM-DD), inclusive. */
  toDay: string;
  /** The first instant of the period (ISO): `from`'s time when one was given, else its day's first millisecond. */
  fromIso: string;
  /** The last instant of the period (ISO), inclusive. */
  toIso: string;
}

const dayOf = (iso: string) => iso.slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS) + 1;

/**
 * The period a report covers, from the contract's `from` / `to` (YYYY-MM-DD, optionally -HHMMSS, UTC):
 * - neither: the last 30 days up to today;
 * - only `to`: the 30 days that end on `to`;
 * - only `from`: from `from` up to today.
 * A `from` after `to`, or a period longer than COMPLETENESS_PERIOD_DAYS_MAX days, is a 400 (one line naming the field):
 * a report spans a bounded number of days, so its reads stay bounded whatever the tenant's history.
 */
export function reportPeriod(query: { from?: string | undefined; to?: string | undefined }, now: Date): ReportPeriod {
  const today = dayOf(now.toISOString());
  const toIso = query.to !== undefined ? isoOf(query.to, 'end') : query.from !== undefined && isoOf(query.from, 'start') > `${today}T23:59:59.999Z` ? isoOf(query.from, 'end') : `${today}T23:59:59.999Z`;
  const fromIso = query.from !== undefined ? isoOf(query.from, 'start') : `${addDays(dayOf(toIso), 1 - DEFAULT_PERIOD_DAYS)}T00:00:00.000Z`;
  if (fromIso > toIso) throw new ValidationError(['query.from: Must not be after to']);
  const fromDay = dayOf(fromIso);
  const toDay = dayOf(toIso);
  if (daysBetween(fromDay, toDay) > COMPLETENESS_PERIOD_DAYS_MAX) {
    throw new ValidationError([`query.from: The period spans at most ${COMPLETENESS_PERIOD_DAYS_MAX} days (${fromDay} to ${toDay} is ${daysBetween(fromDay, toDay)})`]);
  }
  return { fromDay, toDay, fromIso, toIso };
}

/** Sorts after `<day>` and `<day>#<anything>`: `~` is above `#` and every digit. */
const AFTER = '~';

/** The sort-key range of day-keyed counter items (`<day>` or `<day>#<label>`) within the period, for a BETWEEN. */
export function dayRange(period: Pick<ReportPeriod, 'fromDay' | 'toDay'>): [string, string] {
  return [period.fromDay, `${period.toDay}${AFTER}`];
}

/** The sort-key range of time-keyed items (`<ISO>#<id>`) within the period, for a BETWEEN. */
export function timeKeyRange(period: Pick<ReportPeriod, 'fromIso' | 'toIso'>): [string, string] {
  return [period.fromIso, `${period.toIso}${AFTER}`];
}
