import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { isoOf, timeRange, timeRangeOrAll } from './time-range.ts';

describe('time range over time-sorted keys', () => {
  it('reads days and times as UTC bounds that include the whole day or second', () => {
    expect(isoOf('2025-03-04', 'start')).toBe('2025-03-04T00:00:00.000Z');
    expect(isoOf('2025-03-04', 'end')).toBe('2025-03-04T23:59:59.999Z');
    expect(isoOf('2025-03-04-101112', 'end')).toBe('2025-03-04T10:11:12.999Z');
  });
  it('is open-ended on either side and sorts after any reference of the last instant', () => {
    const [lower, upper] = timeRangeOrAll(undefined, '2025-03-04');
    expect(lower).toBe('0');
    expect('2025-03-04T23:59:59.999Z#01ZZZ' < upper).toBe(true);
    expect(timeRangeOrAll('2025-03-04', undefined)[0]).toBe('2025-03-04T00:00:00.000Z');
  });
  it('is undefined without bounds, and open at both ends when a range is required', () => {
    expect(timeRange(undefined, undefined)).toBeUndefined();
    const [lower, upper] = timeRangeOrAll(undefined, undefined);
    expect(lower < '2000' && '9999-12-31T23:59:59.999Z#X' < upper).toBe(true);
  });
  it('refuses from after to with a path line', () => {
    expect(() => timeRange('2025-03-05', '2025-03-04')).toThrow(ValidationError);
    expect(() => timeRange('2025-03-05', '2025-03-04')).toThrow(/query\.from/);
  });
});
