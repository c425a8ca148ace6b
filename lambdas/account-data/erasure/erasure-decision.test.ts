import { describe, expect, it } from 'vitest';
import { addErasedTime, addKept, decideRecord, emptyOutcome, ruleInWords } from './erasure-decision.ts';
import type { RetentionRule } from '../retention/retention-rules.ts';

const gps: RetentionRule = { recordType: 'GpsData', deleteAfterDays: 30, destroyAfterDays: 60, kind: 'at', requiredReceipts: 0, requiredTransfers: 0 };
const calls: RetentionRule = { recordType: 'PayloadData', payloadType: 'Call', deleteAfterDays: 2557, destroyAfterDays: 2587, kind: 'transferred_at', requiredReceipts: 0, requiredTransfers: 0 };
const now = '2026-06-01T00:00:00.000Z';
const hold = { targetType: 'DeviceUser' as const, target: 'pat' };

describe('the erasure decision for one record', () => {
  it('keeps what an active legal hold covers under 17(3)(e), naming the hold, whatever its age', () => {
    expect(decideRecord({ hold, rule: gps, bases: { at: '2020-01-01T00:00:00.000Z' }, now })).toEqual({ verdict: 'kept', exception: 'LegalHold', hold });
  });

  it('keeps a record within its retention period under 17(3)(b) until the day retention would first dispose of it', () => {
    expect(decideRecord({ rule: gps, bases: { at: '2026-05-20T00:00:00.000Z' }, now })).toEqual({
      verdict: 'kept',
      exception: 'LegalObligation',
      rule: 'GpsData: deleted 30 days, destroyed 60 days after its time',
      until: '2026-06-19T00:00:00.000Z',
    });
  });

  it('erases a record past its period, and one whose type has no period at all', () => {
    expect(decideRecord({ rule: gps, bases: { at: '2026-04-01T00:00:00.000Z' }, now })).toEqual({ verdict: 'erase' });
    expect(decideRecord({ rule: { ...gps, deleteAfterDays: undefined, destroyAfterDays: undefined }, bases: { at: '2026-05-31T00:00:00.000Z' }, now })).toEqual({ verdict: 'erase' });
    expect(decideRecord({ rule: undefined, bases: {}, now })).toEqual({ verdict: 'erase' });
  });

  it('counts a rule with only a destroy period from that period', () => {
    const destroyOnly = { ...gps, deleteAfterDays: undefined, destroyAfterDays: 10 };
    expect(decideRecord({ rule: destroyOnly, bases: { at: '2026-05-25T00:00:00.000Z' }, now })).toMatchObject({ verdict: 'kept', until: '2026-06-04T00:00:00.000Z' });
    expect(decideRecord({ rule: destroyOnly, bases: { at: '2026-05-01T00:00:00.000Z' }, now })).toEqual({ verdict: 'erase' });
  });

  it('keeps, with no date, a record whose period counts from a time it does not have yet (a recording not transferred)', () => {
    expect(decideRecord({ rule: calls, bases: { payload_time: '2019-01-01T00:00:00.000Z' }, now })).toEqual({
      verdict: 'kept',
      exception: 'LegalObligation',
      rule: 'PayloadData (Call): deleted 2557 days, destroyed 2587 days after transferred_at (not reached yet)',
    });
  });

  it('keeps a record that has not ended (an onboarded person) under 17(3)(b), the hold first', () => {
    expect(decideRecord({ notEnded: 'still onboarded', rule: gps, now })).toEqual({ verdict: 'kept', exception: 'LegalObligation', rule: 'still onboarded' });
    expect(decideRecord({ hold, notEnded: 'still onboarded', now })).toMatchObject({ exception: 'LegalHold' });
  });

  it('says a rule in words', () => {
    expect(ruleInWords({ ...gps, destroyAfterDays: undefined })).toBe('GpsData: deleted 30 days after its time');
  });
});

describe('a kind\'s outcome aggregates kept records', () => {
  it('by exception and hold or rule, with the latest kept-until date, and keeps holds placed after the decision apart', () => {
    const outcome = emptyOutcome('GpsFixes', 'GpsData');
    addKept(outcome, { verdict: 'kept', exception: 'LegalHold', hold });
    addKept(outcome, { verdict: 'kept', exception: 'LegalHold', hold });
    addKept(outcome, { verdict: 'kept', exception: 'LegalHold', hold }, true);
    addKept(outcome, { verdict: 'kept', exception: 'LegalObligation', rule: 'r', until: '2026-07-01T00:00:00.000Z' });
    addKept(outcome, { verdict: 'kept', exception: 'LegalObligation', rule: 'r', until: '2026-08-01T00:00:00.000Z' });
    addKept(outcome, { verdict: 'kept', exception: 'LegalObligation', rule: 'r', until: '2026-06-01T00:00:00.000Z' });
    expect(outcome.kept).toEqual([
      { exception: 'LegalHold', article: '17(3)(e)', count: 2, holds: [{ target_type: 'DeviceUser', target: 'pat' }] },
      { exception: 'LegalHold', article: '17(3)(e)', count: 1, holds: [{ target_type: 'DeviceUser', target: 'pat' }], held_after_decision: true },
      { exception: 'LegalObligation', article: '17(3)(b)', count: 3, rule: 'r', kept_until: '2026-08-01T00:00:00.000Z' },
    ]);
  });

  it('widens the erased period by each erased record\'s time', () => {
    const outcome = emptyOutcome('DeviceLogs', 'DeviceData');
    for (const time of ['2026-02-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', undefined, '2026-03-01T00:00:00.000Z']) addErasedTime(outcome, time);
    expect([outcome.erased_from, outcome.erased_to]).toEqual(['2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });
});
