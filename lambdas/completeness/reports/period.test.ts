import { describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import { dayRange, reportPeriod, timeKeyRange } from './period.ts';

const now = new Date('2026-03-31T15:00:00.000Z');

describe('a completeness report period', () => {
  it('is the last 30 days up to today when none is given', () => {
    expect(reportPeriod({}, now)).toEqual({ fromDay: '2026-03-02', toDay: '2026-03-31', fromIso: '2026-03-02T00:00:00.000Z', toIso: '2026-03-31T23:59:59.999Z' });
  });

  it('is the 30 days ending on `to` when only `to` is given, and from `from` to today when only `from` is', () => {
    expect(reportPeriod({ to: '2026-01-30' }, now)).toMatchObject({ fromDay: '2026-01-01', toDay: '2026-01-30' });
    expect(reportPeriod({ from: '2026-03-20' }, now)).toMatchObject({ fromDay: '2026-03-20', toDay: '2026-03-31' });
    // A `from` after today is its own day, not a reversed period.
    expect(reportPeriod({ from: '2026-04-02' }, now)).toMatchObject({ fromDay: '2026-04-02', toDay: '2026-04-02' });
  });

  it('keeps the times a `from` and `to` carry for the entries, and their days for the counts', () => {
    const period = reportPeriod({ from: '2026-03-01-101500', to: '2026-03-01-120000' }, now);
    expect(period).toEqual({ fromDay: '2026-03-01', toDay: '2026-03-01', fromIso: '2026-03-01T10:15:00.000Z', toIso: '2026-03-01T12:00:00.999Z' });
    expect(timeKeyRange(period)).toEqual(['2026-03-01T10:15:00.000Z', '2026-03-01T12:00:00.999Z~']);
    expect(dayRange(period)).toEqual(['2026-03-01', '2026-03-01~']);
  });

  it('refuses a `from` after `to`, and a period over 366 days, each with one line naming the field', () => {
    expect(() => reportPeriod({ from: '2026-03-02', to: '2026-03-01' }, now)).toThrow(new ValidationError(['query.from: Must not be after to']));
    expect(() => reportPeriod({ from: '2025-01-01', to: '2026-01-02' }, now)).toThrow('query.from: The period spans at most 366 days (2025-01-01 to 2026-01-02 is 367)');
    expect(reportPeriod({ from: '2025-01-01', to: '2026-01-01' }, now)).toMatchObject({ fromDay: '2025-01-01', toDay: '2026-01-01' });
    expect(() => reportPeriod({ from: '2020-01-01' }, now)).toThrow('query.from: The period spans at most 366 days');
  });
});
