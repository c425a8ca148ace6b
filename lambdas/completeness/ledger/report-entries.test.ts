import { describe, expect, it } from 'vitest';
import { LEDGER_FUTURE_SKEW_SECONDS } from '#shared/constants/completeness.ts';
import type { LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { readReportTimes, sameFacts, type ReportedEntry } from './report-entries.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

describe('a ledger report\'s times', () => {
  it('reads device times as UTC, with or without a zone, and allows the clock skew', () => {
    const read = readReportTimes(
      {
        covered_to: '2026-03-01T12:00:00',
        entries: [
          { entry_id: 'a', payload_type: 'Call', phone_number: '1', direction: 'O', start_time: '2026-03-01T11:00:00+01:00', duration: 5 },
          { entry_id: 'b', payload_type: 'SMS', thread_id: 't', direction: 'I', start_time: later(LEDGER_FUTURE_SKEW_SECONDS) },
        ],
      },
      now,
    );
    expect(read.problems).toEqual([]);
    expect(read.coveredTo).toBe('2026-03-01T12:00:00.000Z');
    expect(read.entries.map((entry) => entry.start_time)).toEqual(['2026-03-01T10:00:00.000Z', later(LEDGER_FUTURE_SKEW_SECONDS)]);
  });

  it('refuses each time beyond the skew, naming its path', () => {
    const read = readReportTimes(
      {
        covered_to: later(LEDGER_FUTURE_SKEW_SECONDS + 1),
        entries: [
          { entry_id: 'a', payload_type: 'Call', phone_number: '1', direction: 'O', start_time: later(0), duration: 5 },
          { entry_id: 'b', payload_type: 'Call', phone_number: '1', direction: 'O', start_time: later(LEDGER_FUTURE_SKEW_SECONDS + 1), duration: 5 },
        ],
      },
      now,
    );
    expect(read.problems).toEqual(['meta.covered_to: Must not be in the future', 'meta.entries.1.start_time: Must not be in the future']);
  });
});

describe('the same facts', () => {
  const stored: LedgerEntryItem = {
    entry_id: 'a', payload_type: 'Call', phone_number: '+44 1', direction: 'O', start_time: '2026-03-01T10:00:00.000Z', duration: 5,
    device_reference: 'dev', outcome: 'Captured', reported_at: 'x', outcome_at: 'x', due_at: 'x', day: '2026-03-01',
  };
  const reported: ReportedEntry = { entry_id: 'a', payload_type: 'Call', phone_number: '+44 1', direction: 'O', start_time: '2026-03-01T10:00:00.000Z', duration: 5 };

  it('are a resend whatever Verity has learnt since (outcome, recording)', () => {
    expect(sameFacts({ ...stored, payload_reference: 'p', outcome: 'Short' }, reported)).toBe(true);
  });

  it('differ on any reported field', () => {
    expect(sameFacts(stored, { ...reported, duration: 6 })).toBe(false);
    expect(sameFacts(stored, { ...reported, phone_number: '+44 2' })).toBe(false);
    expect(sameFacts(stored, { ...reported, direction: 'I' })).toBe(false);
    expect(sameFacts(stored, { ...reported, start_time: '2026-03-01T10:00:01.000Z' })).toBe(false);
    expect(sameFacts(stored, { entry_id: 'a', payload_type: 'SMS', thread_id: 't', direction: 'O', start_time: stored.start_time })).toBe(false);
  });
});
