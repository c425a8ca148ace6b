import { describe, expect, it } from 'vitest';
import { formatDuration, formatSeconds } from './format.ts';

describe('the one duration rule', () => {
  it('rounds to the nearest second, halves up, so a 9.95 s call reads 0:10 everywhere', () => {
    expect(formatDuration(9.95)).toBe('0:10');
    expect(formatDuration(9.49)).toBe('0:09');
    expect(formatDuration(9.5)).toBe('0:10');
    expect(formatDuration(10)).toBe('0:10');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(3599.5)).toBe('1:00:00');
    expect(formatDuration(3723)).toBe('1:02:03');
  });

  it('rounds to the nearest tenth when tenths are shown', () => {
    expect(formatDuration(6.2, { tenths: true })).toBe('0:06.2');
    expect(formatDuration(9.96, { tenths: true })).toBe('0:10.0');
    expect(formatDuration(59.97, { tenths: true })).toBe('1:00.0');
    expect(formatDuration(0, { tenths: true })).toBe('0:00.0');
  });

  it('shows an unknown length as a dash and never a negative one', () => {
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatDuration(-2)).toBe('0:00');
  });

  it('writes a span length to one decimal place', () => {
    expect(formatSeconds(2.9)).toBe('2.9 s');
    expect(formatSeconds(3)).toBe('3 s');
    expect(formatSeconds(0.30000000000000004)).toBe('0.3 s');
  });
});
