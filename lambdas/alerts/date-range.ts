import { ValidationError } from '#core/errors.ts';

/**
 * The contract's DateTimeParam (`YYYY-MM-DD`, optionally `-HHMMSS`, UTC) as ISO text: a `from` without a time starts
 * at the day's first millisecond, a `to` without one ends at its last, a `to` with a time includes that second.
 */
export function isoOf(param: string, end: 'start' | 'end'): string {
  const [date, time] = [param.slice(0, 10), param.slice(11)];
  const clock = time.length === 6 ? `${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}` : end === 'start' ? '00:00:00' : '23:59:59';
  return `${date}T${clock}.${end === 'start' ? '000' : '999'}Z`;
}

/**
 * A BETWEEN range over time-sorted keys (`<iso>#<reference>`), always defined (the list also narrows to alert keys).
 * A `from` after `to` is a 400: it is always a mistake.
 */
export function timeRange(from: string | undefined, to: string | undefined): [string, string] {
  const lower = from === undefined ? '0' : isoOf(from, 'start');
  const upper = `${to === undefined ? '9999-12-31T23:59:59.999Z' : isoOf(to, 'end')}~`;
  if (from !== undefined && to !== undefined && lower > isoOf(to, 'end')) throw new ValidationError(['query.from: Must not be after to']);
  return [lower, upper];
}
