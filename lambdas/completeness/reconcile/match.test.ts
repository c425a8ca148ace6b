import { describe, expect, it } from 'vitest';
import { MATCH_TOLERANCE_SECONDS } from '#shared/constants/completeness.ts';
import { chooseEntry, chooseRecording, isMatch, ledgerTypeOf, matchWindow, type EntryFacts, type RecordingFacts } from './match.ts';

const T = '2026-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T) + seconds * 1000).toISOString();

const call: EntryFacts = { entry_id: 'c1', reference: 'dev/c1', payload_type: 'Call', direction: 'O', start_time: T, duration: 60, phone_number: '07700 900123' };
const callRecording: RecordingFacts = { payload_reference: 'p1', payload_type: 'Call', direction: 'O', payload_time: T, numbers: ['700900123'] };
const sms: EntryFacts = { entry_id: 'm1', reference: 'dev/m1', payload_type: 'SMS', direction: 'I', start_time: T, thread_id: '42', phone_number: '+44 7700 900999' };
const smsRecording: RecordingFacts = { payload_reference: 'p2', payload_type: 'SMS', direction: 'I', payload_time: T, numbers: ['700900999'], thread_id: '42' };

describe('matching an entry and a recording', () => {
  it('matches a call by number in another format, direction and time', () => {
    expect(isMatch(call, callRecording)).toBe(true);
    expect(isMatch({ ...call, phone_number: '+44 7700 900124' }, callRecording)).toBe(false);
    expect(isMatch({ ...call, direction: 'I' }, callRecording)).toBe(false);
  });

  it('holds the tolerance inclusively on both sides, and not a millisecond beyond', () => {
    expect(isMatch(call, { ...callRecording, payload_time: at(MATCH_TOLERANCE_SECONDS) })).toBe(true);
    expect(isMatch(call, { ...callRecording, payload_time: at(-MATCH_TOLERANCE_SECONDS) })).toBe(true);
    expect(isMatch(call, { ...callRecording, payload_time: new Date(Date.parse(at(MATCH_TOLERANCE_SECONDS)) + 1).toISOString() })).toBe(false);
    expect(isMatch(call, { ...callRecording, payload_time: at(-MATCH_TOLERANCE_SECONDS - 1) })).toBe(false);
  });

  it('matches an aborted call only to a call never connected, and a call recording to any call', () => {
    const aborted = { ...callRecording, payload_type: 'AbortedCall' as const };
    expect(isMatch({ ...call, duration: 0 }, aborted)).toBe(true);
    expect(isMatch(call, aborted)).toBe(false);
    expect(isMatch({ ...call, duration: 0 }, callRecording)).toBe(true);
    expect(isMatch(call, { ...callRecording, payload_type: 'BlockedCall' })).toBe(false);
  });

  it('matches a message only to its own type, by thread when both have one', () => {
    expect(isMatch(sms, smsRecording)).toBe(true);
    expect(isMatch(sms, { ...smsRecording, payload_type: 'MMS' })).toBe(false);
    expect(isMatch({ ...sms, payload_type: 'MMS' }, { ...smsRecording, payload_type: 'MMS' })).toBe(true);
    // Same number, other thread: another conversation.
    expect(isMatch(sms, { ...smsRecording, thread_id: '43' })).toBe(false);
  });

  it('falls back to the number when either side has no thread, and to nothing without a number', () => {
    expect(isMatch(sms, { ...smsRecording, thread_id: undefined })).toBe(true);
    expect(isMatch({ ...sms, thread_id: undefined }, { ...smsRecording, numbers: ['111'] })).toBe(false);
    const { phone_number: _none, ...groupThread } = sms;
    expect(isMatch(groupThread, { ...smsRecording, thread_id: undefined })).toBe(false);
  });

  it('never matches a call with a message, or another call type with the ledger', () => {
    expect(isMatch({ ...sms, payload_type: 'SMS' }, { ...callRecording, direction: 'I', numbers: ['700900999'] })).toBe(false);
    expect(ledgerTypeOf('Interview')).toBeUndefined();
    expect(ledgerTypeOf('AbortedCall')).toBe('Call');
    expect(ledgerTypeOf('RCS')).toBe('RCS');
  });
});

describe('choosing among candidates', () => {
  it('takes the nearest in time, either side of the entry', () => {
    const far = { ...callRecording, payload_reference: 'a', payload_time: at(-90) };
    const near = { ...callRecording, payload_reference: 'z', payload_time: at(30) };
    const other = { ...callRecording, payload_reference: 'b', payload_time: at(1), numbers: ['1'] };
    expect(chooseRecording(call, [far, near, other])?.payload_reference).toBe('z');
  });

  it('breaks a tie by the lowest reference, whatever the order given', () => {
    const before = { ...callRecording, payload_reference: 'p-b', payload_time: at(-20) };
    const after = { ...callRecording, payload_reference: 'p-a', payload_time: at(20) };
    expect(chooseRecording(call, [before, after])?.payload_reference).toBe('p-a');
    expect(chooseRecording(call, [after, before])?.payload_reference).toBe('p-a');
    const entries = [{ ...call, reference: 'dev/c9', start_time: at(5) }, { ...call, reference: 'dev/c10', start_time: at(-5) }];
    expect(chooseEntry(callRecording, entries)?.reference).toBe('dev/c10');
    expect(chooseEntry(callRecording, [...entries].reverse())?.reference).toBe('dev/c10');
  });

  it('chooses nothing when nothing matches', () => {
    expect(chooseRecording(call, [])).toBeUndefined();
    expect(chooseEntry(callRecording, [{ ...call, direction: 'I' }])).toBeUndefined();
  });
});

describe('the match window', () => {
  it('is a sort-key range holding every time within the tolerance and no other', () => {
    const [from, to] = matchWindow(T).between;
    const inside = (sk: string) => sk >= from && sk <= to;
    expect(inside(`${at(-MATCH_TOLERANCE_SECONDS)}#x`)).toBe(true);
    expect(inside(`${at(MATCH_TOLERANCE_SECONDS)}#zz%23z`)).toBe(true);
    expect(inside(`${new Date(Date.parse(at(-MATCH_TOLERANCE_SECONDS)) - 1).toISOString()}#x`)).toBe(false);
    expect(inside(`${at(MATCH_TOLERANCE_SECONDS + 1)}#a`)).toBe(false);
  });
});
