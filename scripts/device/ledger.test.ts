import { describe, expect, it } from 'vitest';
import { LEDGER_ENTRIES_MAX, SHORT_TOLERANCE_SECONDS } from '#shared/constants/completeness.ts';
import { LedgerReport, type LedgerEntryReport } from '#shared/contract/entities/completeness.ts';
import { META_BY_TYPE } from '#shared/contract/entities/payloads.ts';
import { ledgerFactsOf, ledgerReports, noteInLedger } from './ledger.ts';
import { demoRecordings, record, recordOptionsProblem } from './recorder.ts';
import type { DeviceState } from './device-state.ts';
import type { Simulator } from './simulator.ts';

/** The simulated phone's ledger: what its call log and message store saw, as the contract takes it. */
const at = new Date('2026-03-02T10:00:00Z');
const phone = (): DeviceState => ({ name: 'p', client: 'demo' }) as DeviceState;
// Any call to the server fails the test: nothing listens here and the phone has no key.
const offline: Simulator = { baseUrl: 'http://127.0.0.1:9', enrolmentKey: () => Promise.reject(new Error('called the server')) };

describe('ledger entries of what the phone recorded', () => {
  it('takes a call from its call log: number, direction, start and the call length, which --short makes longer than the recording', () => {
    const [call] = demoRecordings('Call', { at, otherNumber: '+447700900321', direction: 'I', shortSeconds: 40 });
    const facts = ledgerFactsOf(call as NonNullable<typeof call>);
    const recorded = call?.meta.payload_full_duration as number;
    expect(facts).toEqual({ payload_type: 'Call', phone_number: '+447700900321', direction: 'I', start_time: at.toISOString(), duration: recorded + 40 });
    expect(40).toBeGreaterThan(SHORT_TOLERANCE_SECONDS);
    // The recording itself stays what the pipeline takes, ending when its audio does.
    expect(META_BY_TYPE.Call.safeParse(call?.meta).success).toBe(true);
    expect(call?.meta.payload_end_time).toBe(new Date(at.getTime() + recorded * 1000).toISOString());
  });

  it('lists an aborted call as a call of 0 seconds, messages with their thread, and nothing for a blocked call or media', () => {
    const [aborted] = demoRecordings('AbortedCall', { at });
    expect(ledgerFactsOf(aborted as NonNullable<typeof aborted>)).toMatchObject({ payload_type: 'Call', duration: 0, direction: 'O' });
    const thread = demoRecordings('SMS', { at, otherNumber: '+447700900555' }).map(ledgerFactsOf);
    expect(thread.map((entry) => entry?.payload_type)).toEqual(['SMS', 'SMS', 'SMS', 'MMS']);
    expect(new Set(thread.map((entry) => entry !== undefined && 'thread_id' in entry && entry.thread_id)).size).toBe(1);
    expect(thread.map((entry) => entry?.direction)).toEqual(['I', 'O', 'I', 'I']);
    for (const type of ['BlockedCall', 'Interview', 'Photo', 'Video'] as const) {
      expect(demoRecordings(type, { at }).map(ledgerFactsOf), type).toEqual([undefined]);
    }
  });

  it('numbers each entry once, never reusing an id, and keeps them until reported', () => {
    const state = phone();
    const first = noteInLedger(state, demoRecordings('Call', { at }));
    const second = noteInLedger(state, [...demoRecordings('SMS', { at }), ...demoRecordings('Photo', { at })]);
    expect(first.map((entry) => entry.entry_id)).toEqual(['call-1']);
    expect(second.map((entry) => entry.entry_id)).toEqual(['msg-2', 'msg-3', 'msg-4', 'msg-5']);
    expect(state.ledger).toEqual([...first, ...second]);
    expect(state.ledger_sequence).toBe(5);
    expect(LedgerReport.safeParse({ covered_to: at.toISOString(), entries: state.ledger }).success).toBe(true);
  });
});

describe('ledger reports', () => {
  const now = new Date('2026-03-05T00:00:00Z');
  const entryAt = (index: number): LedgerEntryReport => ({
    entry_id: `call-${index}`,
    payload_type: 'Call',
    phone_number: '+447700900123',
    direction: 'O',
    // Two entries a minute (the 200th and 201st oldest in the same one), given newest first, so the reports sort them.
    start_time: new Date(at.getTime() + Math.floor((index + 1) / 2) * 60_000).toISOString(),
    duration: 30,
  });

  it('tells a quiet phone is alive: one empty report covering up to now', () => {
    expect(ledgerReports([], now)).toEqual([{ covered_to: now.toISOString(), entries: [] }]);
  });

  it('splits a long ledger into reports of at most the bound, oldest first, each covering only what it and those before it carry', () => {
    const entries = Array.from({ length: 2 * LEDGER_ENTRIES_MAX + 50 }, (_, index) => entryAt(2 * LEDGER_ENTRIES_MAX + 49 - index));
    const reports = ledgerReports(entries, now);
    expect(reports.map((report) => report.entries.length)).toEqual([LEDGER_ENTRIES_MAX, LEDGER_ENTRIES_MAX, 50]);
    const sent = reports.flatMap((report) => report.entries);
    expect(new Set(sent.map((entry) => entry.entry_id))).toEqual(new Set(entries.map((entry) => entry.entry_id)));
    expect(sent.map((entry) => entry.start_time)).toEqual(entries.map((entry) => entry.start_time).sort());
    for (const [index, report] of reports.entries()) {
      expect(LedgerReport.safeParse(report).success).toBe(true);
      const coveredTo = Date.parse(report.covered_to);
      // Nothing a later report carries is covered, even at the same instant as one this report carries.
      for (const later of reports.slice(index + 1).flatMap((each) => each.entries)) expect(Date.parse(later.start_time)).toBeGreaterThan(coveredTo);
    }
    expect(reports[1]?.entries[0]?.start_time).toBe(reports[0]?.entries.at(-1)?.start_time);
    expect(reports.at(-1)?.covered_to).toBe(now.toISOString());
  });
});

describe('recording with a gap', () => {
  it('notes a dropped call in the ledger and uploads nothing', async () => {
    const state = phone();
    expect(await record(offline, state, 'Call', { at, drop: true })).toEqual([{ payload_type: 'Call', state: 'dropped' }]);
    expect(state.ledger).toHaveLength(1);
    expect(state.held).toBeUndefined();
  });

  it('holds a late thread back with what makes the same messages again, each in the ledger', async () => {
    const state = phone();
    const results = await record(offline, state, 'SMS', { at, late: true, seed: 3, otherNumber: '+447700900777' });
    expect(results.map((result) => result.state)).toEqual(['held', 'held', 'held', 'held']);
    expect(state.held).toEqual([{ type: 'SMS', at: at.toISOString(), seed: 3, other_number: '+447700900777' }]);
    expect(state.ledger?.map((entry) => entry.payload_type)).toEqual(['SMS', 'SMS', 'SMS', 'MMS']);
  });

  it('refuses gaps that do not fit, before the phone notes or calls anything', async () => {
    expect(recordOptionsProblem('Call', { drop: true, late: true })).toBe('One gap at a time: --drop and --late do not go together');
    expect(recordOptionsProblem('Photo', { drop: true })).toBe('Only what the call log or message store lists has gaps: --drop needs --type Call, AbortedCall, SMS');
    expect(recordOptionsProblem('SMS', { shortSeconds: 20 })).toMatch(/--short .* needs --type Call/);
    expect(recordOptionsProblem('Call', { shortSeconds: 0 })).toMatch(/--short is whole seconds \(1 or more\)/);
    expect(recordOptionsProblem('Call', { late: true, tamper: true })).toBe('--late goes with a clean upload: not with --eicar or --tamper');
    const state = phone();
    await expect(record(offline, state, 'Photo', { late: true })).rejects.toThrow('--late needs --type');
    expect(state.ledger).toBeUndefined();
  });
});
