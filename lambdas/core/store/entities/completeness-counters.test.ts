import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { completenessPeriodRange, countsOf, readCompletenessCounters, sumCompletenessCounters } from './completeness-counters.ts';

describe('completeness counters item', () => {
  it('keys a day per cut, the device user\'s and device\'s both among all and in their own partition', () => {
    expect(keys.completenessCounters.tenantDay('acme', '2026-03-01')).toMatchObject({ pk: 'C#acme#COMPLETENESS#TENANT', sk: '2026-03-01', entity: 'CompletenessCounters' });
    expect(keys.completenessCounters.groupDay('acme', '2026-03-01', 'a#b')).toMatchObject({ pk: 'C#acme#COMPLETENESS#GROUP', sk: '2026-03-01#a%23b' });
    expect(keys.completenessCounters.deviceUserDay('acme', '2026-03-01', 'alice')).toMatchObject({ pk: 'C#acme#COMPLETENESS#DUSER', sk: '2026-03-01#alice' });
    expect(keys.completenessCounters.deviceUserOwnDay('acme', '2026-03-01', 'alice')).toMatchObject({ pk: 'C#acme#DUSER#alice#COMPLETENESS', sk: '2026-03-01' });
    expect(keys.completenessCounters.deviceDay('acme', '2026-03-01', 'dev-1')).toMatchObject({ pk: 'C#acme#COMPLETENESS#DEVICE', sk: '2026-03-01#dev-1' });
    expect(keys.completenessCounters.deviceOwnDay('acme', '2026-03-01', 'dev-1')).toMatchObject({ pk: 'C#acme#DEVICE#dev-1#COMPLETENESS', sk: '2026-03-01' });
    expect(keys.completenessCounters.listDevice('acme', 'dev-1')).toEqual({ partition: 'C#acme#DEVICE#dev-1#COMPLETENESS' });
  });

  it('a period range holds its first and last day in every cut, and not the day after', () => {
    const [from, to] = completenessPeriodRange('2026-03-01', '2026-03-31').between;
    const inside = (sk: string) => sk >= from && sk <= to;
    expect(inside('2026-03-01')).toBe(true);
    expect(inside('2026-03-31#zz-group')).toBe(true);
    expect(inside('2026-03-31')).toBe(true);
    expect(inside('2026-04-01')).toBe(false);
    expect(inside('2026-02-28#x')).toBe(false);
  });

  it('reads the per-type counters and labels; other attributes are not counters; a counter that is not a number fails', () => {
    const item = { ...keys.completenessCounters.groupDay('acme', '2026-03-01', 'north'), day: '2026-03-01', group: 'north', 'Call#expected': 3, 'SMS#missing': 1, 'Fax#expected': 9 };
    expect(readCompletenessCounters(item)).toEqual({ day: '2026-03-01', group: 'north', counters: { 'Call#expected': 3, 'SMS#missing': 1 } });
    expect(() => readCompletenessCounters({ ...item, 'Call#short': '1' })).toThrow(InternalError);
    expect(() => readCompletenessCounters({ ...item, 'Call#short': '1' })).toThrow(/Call#short/);
  });

  it('sums the allowed payload types and computes the captured share of the entries past Pending', () => {
    const counters = {
      'Call#expected': 10, 'Call#captured': 5, 'Call#captured_late': 1, 'Call#short': 1, 'Call#pending': 2, 'Call#missing': 1, 'Call#unexpected': 2,
      'SMS#expected': 4, 'SMS#captured': 4,
    };
    expect(countsOf({ counters })).toEqual({ expected: 14, captured: 9, captured_late: 1, short: 1, pending: 2, missing: 1, unexpected: 2, share_complete: 10 / 12 });
    expect(countsOf({ counters }, ['SMS'])).toEqual({ expected: 4, captured: 4, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0, share_complete: 1 });
    expect(countsOf({ counters }, [])).toEqual({ expected: 0, captured: 0, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0 });
  });

  it('has no share while every entry is Pending or none exists, and never reads a counter below zero', () => {
    expect(countsOf({ counters: { 'Call#expected': 2, 'Call#pending': 2 } })).not.toHaveProperty('share_complete');
    expect(countsOf({ counters: { 'Call#unexpected': 3 } })).not.toHaveProperty('share_complete');
    expect(countsOf({ counters: { 'Call#missing': -1 } }).missing).toBe(0);
  });

  it('adds several items counter by counter', () => {
    expect(sumCompletenessCounters([{ counters: { 'Call#expected': 1 } }, { counters: { 'Call#expected': 2, 'SMS#pending': 1 } }])).toEqual({ 'Call#expected': 3, 'SMS#pending': 1 });
  });
});
