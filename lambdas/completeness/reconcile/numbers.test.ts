import { describe, expect, it } from 'vitest';
import { comparableNumber, comparableNumbers } from './numbers.ts';

describe('comparable numbers', () => {
  it('compare international and national forms by their last 9 digits', () => {
    expect(comparableNumber('+44 7700 900123')).toBe('700900123');
    expect(comparableNumber('07700900123')).toBe('700900123');
    expect(comparableNumber('(0044) 7700-900-123')).toBe('700900123');
  });

  it('keep a short number whole, and give no number for one without digits', () => {
    expect(comparableNumber('12345')).toBe('12345');
    expect(comparableNumber('Private')).toBeUndefined();
    expect(comparableNumber('')).toBeUndefined();
    expect(comparableNumber(undefined)).toBeUndefined();
  });

  it('list several without repeats or numbers that have none', () => {
    expect(comparableNumbers(['+44 7700 900123', '07700900123', 'Unknown', '+1 555 0100'])).toEqual(['700900123', '15550100']);
  });
});
