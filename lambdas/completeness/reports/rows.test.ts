import { describe, expect, it } from 'vitest';
import { rowOf, rowShown, summedRow } from './rows.ts';
import { ledgerTypesOf } from './scope.ts';

const item = (counters: Record<string, number>, labels: Record<string, string> = {}) => ({ day: '2026-03-01', ...labels, counters });

describe('completeness report rows', () => {
  it('count only the payload types the caller may see, with the share of the settled entries', () => {
    const counted = item({ 'Call#expected': 4, 'Call#captured': 2, 'Call#missing': 1, 'Call#pending': 1, 'SMS#expected': 3, 'SMS#captured_late': 3 }, { group: 'g', device_user_reference: 'u' });
    expect(rowOf(counted, ['Call', 'SMS', 'MMS', 'RCS'])).toEqual({
      day: '2026-03-01',
      group: 'g',
      device_user_reference: 'u',
      expected: 7,
      captured: 2,
      captured_late: 3,
      short: 0,
      pending: 1,
      missing: 1,
      unexpected: 0,
      share_complete: 5 / 6,
    });
    expect(rowOf(counted, ['SMS'])).toMatchObject({ expected: 3, captured: 0, captured_late: 3, missing: 0, share_complete: 1 });
  });

  it('sum a group-limited caller’s tenant day from its groups’ rows', () => {
    const row = summedRow('2026-03-01', [item({ 'Call#expected': 2, 'Call#missing': 2 }), item({ 'Call#expected': 1, 'Call#captured': 1, 'SMS#unexpected': 1 })], ['Call', 'SMS']);
    expect(row).toEqual({ day: '2026-03-01', expected: 3, captured: 1, captured_late: 0, short: 0, pending: 0, missing: 2, unexpected: 1, share_complete: 1 / 3 });
    expect(summedRow('2026-03-01', [], ['Call'], 'g')).toMatchObject({ day: '2026-03-01', group: 'g', expected: 0 });
  });

  it('show a row that counts something the caller sees, and with an outcome only one that has it', () => {
    const row = rowOf(item({ 'Call#expected': 1, 'Call#missing': 1 }), ['Call']);
    expect(rowShown(row, undefined)).toBe(true);
    expect(rowShown(row, 'Missing')).toBe(true);
    expect(rowShown(row, 'Captured late')).toBe(false);
    expect(rowShown(rowOf(item({ 'Call#expected': 1 }), ['SMS']), undefined)).toBe(false);
    expect(rowShown(rowOf(item({ 'MMS#unexpected': 1 }), ['MMS']), 'Unexpected')).toBe(true);
  });

  it('open a ledger type only with that payload type (an aborted call permission opens no call entries)', () => {
    expect(ledgerTypesOf(['AbortedCall', 'SMS', 'Photo', 'Call'])).toEqual(['Call', 'SMS']);
    expect(ledgerTypesOf(['AbortedCall', 'Photo'])).toEqual([]);
  });
});
