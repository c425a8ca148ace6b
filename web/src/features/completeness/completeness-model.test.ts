import { describe, expect, it } from 'vitest';
import type { CompletenessEntry, CompletenessRow } from '#shared/contract/entities/completeness.ts';
import { toCsv } from '../../lib/csv.ts';
import {
  countColumns,
  dailyShares,
  entryLine,
  ENTRY_COLUMNS,
  gapsFirst,
  groupShares,
  nameColumns,
  periodOf,
  shareOf,
  shareText,
  sumCounts,
} from './completeness-model.ts';

const counts = { expected: 0, captured: 0, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0 };
const row = (fields: Partial<CompletenessRow> & { day: string }): CompletenessRow => ({ ...counts, ...fields });

const entry = (fields: Partial<CompletenessEntry>): CompletenessEntry => ({
  entry_reference: 'dev-1/call-7',
  entry_id: 'call-7',
  outcome: 'Missing',
  payload_type: 'Call',
  direction: 'O',
  phone_number: '+44 7700 900123',
  start_time: '2026-11-20T09:30:00.000Z',
  duration: 180,
  device_reference: 'dev-1',
  device_model: 'Pixel 8',
  device_user_reference: 'alice',
  device_user_name: 'Alice Archer',
  ...fields,
});

describe('periodOf', () => {
  const now = new Date('2026-11-29T05:00:00Z');
  it('reads the last 30 days to today (UTC) when the URL names no period', () => {
    expect(periodOf({}, now)).toEqual({ from: '2026-10-31', to: '2026-11-29' });
  });
  it('keeps the days the URL names, and fills a missing start as the 30 days to its end', () => {
    expect(periodOf({ from: '2026-11-01', to: '2026-11-10' }, now)).toEqual({ from: '2026-11-01', to: '2026-11-10' });
    expect(periodOf({ to: '2026-03-01' }, now)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(periodOf({ from: '2026-11-20' }, now)).toEqual({ from: '2026-11-20', to: '2026-11-29' });
  });
});

describe('shares', () => {
  it('counts captured and captured late over the entries past Pending, and has none when nothing is settled', () => {
    expect(shareOf({ ...counts, expected: 10, captured: 6, captured_late: 1, short: 1, missing: 1, pending: 1 })).toBeCloseTo(7 / 9);
    expect(shareOf({ ...counts, expected: 3, pending: 3 })).toBeUndefined();
    expect(shareText(undefined)).toBe('—');
  });
  it('never rounds a share up to 100 %', () => {
    expect(shareText(0.99996)).toBe('99.9 %');
    expect(shareText(1)).toBe('100.0 %');
  });
  it('sums days of a cut with the same rule', () => {
    const total = sumCounts([row({ day: '2026-11-20', expected: 4, captured: 3, missing: 1 }), row({ day: '2026-11-21', expected: 2, pending: 2, unexpected: 1 })]);
    expect(total).toMatchObject({ expected: 6, captured: 3, missing: 1, pending: 2, unexpected: 1 });
    expect(total.share_complete).toBeCloseTo(3 / 4);
  });
  it('draws the share per day oldest first, leaving out days with no share rather than drawing them as 0', () => {
    const shares = dailyShares([
      row({ day: '2026-11-21', expected: 2, pending: 2 }),
      row({ day: '2026-11-22', expected: 4, captured: 3, missing: 1, share_complete: 0.75 }),
      row({ day: '2026-11-20', expected: 1, captured: 1, share_complete: 1 }),
    ]);
    expect(shares).toEqual({ days: ['2026-11-20', '2026-11-22'], values: [100, 75] });
  });
  it('puts the group with the lowest share over the period first', () => {
    const bars = groupShares([
      row({ day: '2026-11-20', group: 'sales', expected: 2, captured: 2 }),
      row({ day: '2026-11-21', group: 'sales', expected: 2, captured: 1, missing: 1 }),
      row({ day: '2026-11-20', group: 'desk', expected: 4, captured: 1, short: 3 }),
      row({ day: '2026-11-20', group: 'quiet', expected: 1, pending: 1 }),
    ]);
    expect(bars).toEqual([
      { label: 'desk', value: 25 },
      { label: 'sales', value: 75 },
    ]);
  });
});

describe('gapsFirst', () => {
  it('orders the most missing first, then the most short, then the newest day, and lists a day met by both filters once', () => {
    const alice = row({ day: '2026-11-20', device_user_reference: 'alice', device_user_name: 'Alice Archer', expected: 5, missing: 1, short: 2 });
    const bob = row({ day: '2026-11-21', device_user_reference: 'bob', device_user_name: 'Bob Baker', expected: 5, missing: 3 });
    const carol = row({ day: '2026-11-22', device_user_reference: 'carol', expected: 5, short: 1 });
    const aliceLater = row({ day: '2026-11-23', device_user_reference: 'alice', device_user_name: 'Alice Archer', expected: 5, missing: 1 });
    // The Missing rows, then the Short rows (alice's 20th is in both).
    const ordered = gapsFirst([alice, bob, aliceLater, alice, carol]);
    expect(ordered.map((entry) => `${entry.device_user_reference} ${entry.day}`)).toEqual(['bob 2026-11-21', 'alice 2026-11-20', 'alice 2026-11-23', 'carol 2026-11-22']);
  });
});

describe('CSV rows', () => {
  it('writes a person row by name and reference with every count and the share as shown', () => {
    const columns = [...nameColumns('device_user'), ...countColumns<CompletenessRow>()];
    const csv = toCsv(columns, [row({ day: '2026-11-20', device_user_reference: 'alice', device_user_name: 'Alice Archer', expected: 4, captured: 2, captured_late: 1, missing: 1, share_complete: 0.75 })]);
    expect(csv).toBe(
      'Day,Person,Device user,Expected,Captured,Captured late,Short,Pending,Missing,Unexpected,Share complete\r\n2026-11-20,Alice Archer,alice,4,2,1,0,0,1,0,75.0 %\r\n',
    );
  });
  it('writes an entry with its facts, outcome and recording; a number that looks like a formula stays text', () => {
    const csv = toCsv(ENTRY_COLUMNS, [entry({}), entry({ entry_reference: 'dev-1/x', phone_number: '=HYPERLINK("x")', outcome: 'Short', payload_reference: 'p-1', recording_duration: 42, is_intermittent: true })]);
    const [header, missing, short] = csv.split('\r\n');
    expect(header).toBe('Time,Type,Direction,Number,Thread,Call length,Outcome,Recording length,Intermittent,Recording,Uploaded,Person,Device,Group,Entry id,Reported,Due');
    // lib/csv.ts keeps a leading + as text (a spreadsheet would read it as a formula), as every export does.
    expect(missing).toBe("2026-11-20T09:30:00.000Z,Call,Outgoing,'+44 7700 900123,,3:00,Missing,,,,,Alice Archer,Pixel 8,,call-7,,");
    expect(short).toContain(`"'=HYPERLINK(""x"")"`);
    expect(short).toContain(',Short,0:42,yes,p-1,');
  });
});

describe('entryLine', () => {
  it('says a missing call as the list shows it where its recording would have been', () => {
    expect(entryLine(entry({}))).toBe('Missing call: +44 7700 900123, outgoing, 3:00, not recorded');
  });
  it('says a short call with what was recorded, and a missing message by its thread when it has no number', () => {
    expect(entryLine(entry({ outcome: 'Short', recording_duration: 42, is_intermittent: true }))).toBe('Short call: +44 7700 900123, outgoing, 3:00, recorded 0:42, intermittent');
    expect(entryLine(entry({ payload_type: 'SMS', phone_number: undefined, thread_id: '17', direction: 'I', duration: undefined }))).toBe('Missing SMS: Thread 17, incoming, not recorded');
  });
});
