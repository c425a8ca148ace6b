import { ValidationError } from '../errors.ts';

/**
 * The contract's DateTimeParam (`YYYY-MM-DD`, optionally `-HHMMSS`, read as UTC) as the ISO text time-sorted keys
 * start with. A `from` without a time starts at the day's first millisecond; a `to` without one ends at its last,
 * and a `to` with a time includes that whole second, so `from=to=<day>` is that day.
 */
export function isoOf(param: string, end: 'start' | 'end'): string {
  const [date, time] = [param.slice(0, 10), param.slice(11)];
  const clock = time.length === 6 ? `${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}` : end === 'start' ? '00:00:00' : '23:59:59';
  return `${date}T${clock}.${end === 'start' ? '000' : '999'}Z`;
}

/** Below every ISO time key (DynamoDB refuses an empty key value). */
const LOWEST = '0';
/** Sorts after `<iso>#<anything>`: `~` is above `#` and every digit. */
const AFTER = '~';

/**
 * A sort-key range (for a BETWEEN key condition) over keys that start with an ISO time, or undefined when neither
 * bound is given. A `from` after `to` is a 400, not an empty page: it is always a mistake.
 */
export function timeRange(from: string | undefined, to: string | undefined): [string, string] | undefined {
  if (from === undefined && to === undefined) return undefined;
  const lower = from === undefined ? LOWEST : isoOf(from, 'start');
  const upper = to === undefined ? `9999-12-31T23:59:59.999Z${AFTER}` : `${isoOf(to, 'end')}${AFTER}`;
  if (from !== undefined && to !== undefined && lower > isoOf(to, 'end')) throw new ValidationError(['query.from: Must not be after to']);
  return [lower, upper];
}

/** The same range, open at both ends when neither bound is given (for lists that always narrow by sort key). */
export function timeRangeOrAll(from: string | undefined, to: string | undefined): [string, string] {
  return timeRange(from, to) ?? [LOWEST, `9999-12-31T23:59:59.999Z${AFTER}`];
}
