import { describe, expect, it } from 'vitest';
import { SHORT_TOLERANCE_SECONDS } from '#shared/constants/completeness.ts';
import { dayOf, dueAtOf, outcomeOfMatch, type OutcomeEntry } from './outcome.ts';

const call: OutcomeEntry = { payload_type: 'Call', duration: 120, due_at: '2026-03-02T10:02:00.000Z', outcome: 'Pending' };
const inTime = { uploaded_at: '2026-03-01T10:05:00.000Z' };

describe('the outcome of a matched entry', () => {
  it('is Captured when the whole call was uploaded in its grace period', () => {
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120 })).toBe('Captured');
  });

  it('is Short only past the tolerance: exactly at it is Captured', () => {
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120 - SHORT_TOLERANCE_SECONDS })).toBe('Captured');
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120 - SHORT_TOLERANCE_SECONDS - 1 })).toBe('Short');
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120 - SHORT_TOLERANCE_SECONDS - 0.5 })).toBe('Short');
  });

  it('is Short for an intermittent recording of full length, and Short wins over late', () => {
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120, is_intermittent: true })).toBe('Short');
    expect(outcomeOfMatch(call, { uploaded_at: '2026-03-05T00:00:00.000Z', recording_duration: 10 })).toBe('Short');
  });

  it('does not judge a recording of unknown length short, and a longer one is whole', () => {
    expect(outcomeOfMatch(call, inTime)).toBe('Captured');
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 500 })).toBe('Captured');
  });

  it('never makes a message Short', () => {
    const sms: OutcomeEntry = { payload_type: 'SMS', due_at: call.due_at };
    expect(outcomeOfMatch(sms, { ...inTime, is_intermittent: true, recording_duration: 0 })).toBe('Captured');
  });

  it('is Captured late when uploaded after the grace period, or the recording is itself late', () => {
    expect(outcomeOfMatch(call, { uploaded_at: '2026-03-02T10:02:00.001Z', recording_duration: 120 })).toBe('Captured late');
    expect(outcomeOfMatch(call, { uploaded_at: call.due_at, recording_duration: 120 })).toBe('Captured');
    expect(outcomeOfMatch(call, { ...inTime, recording_duration: 120, is_late: true })).toBe('Captured late');
  });

  it('turns a Missing entry Captured late (never back to Captured), or Short', () => {
    expect(outcomeOfMatch({ ...call, outcome: 'Missing' }, { ...inTime, recording_duration: 120 })).toBe('Captured late');
    expect(outcomeOfMatch({ ...call, outcome: 'Missing' }, { ...inTime, recording_duration: 1 })).toBe('Short');
  });
});

describe('due time and day', () => {
  it('ends the grace period after the call ends', () => {
    expect(dueAtOf('2026-03-01T10:00:00.000Z', 120, 24)).toBe('2026-03-02T10:02:00.000Z');
    expect(dueAtOf('2026-03-01T10:00:00.000Z', undefined, 1)).toBe('2026-03-01T11:00:00.000Z');
  });

  it('counts on the UTC day of the time', () => {
    expect(dayOf('2026-03-01T23:59:59.999Z')).toBe('2026-03-01');
    expect(dayOf('2026-03-02T00:00:00.000Z')).toBe('2026-03-02');
  });
});
