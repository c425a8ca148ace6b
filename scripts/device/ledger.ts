import { LEDGER_ENTRIES_MAX } from '#shared/constants/completeness.ts';
import type { LedgerAccepted, LedgerEntryReport, LedgerReport } from '#shared/contract/entities/completeness.ts';
import type { DeviceState } from './device-state.ts';
import type { Recording } from './recorder.ts';
import { sealedUpload, type CallResult, type Simulator } from './simulator.ts';

/**
 * The simulated phone's ledger (docs/completeness.md): what its own call log and message store saw, whatever the
 * recorder made of it. Every call and message the phone records is noted here first, with a stable id (the call log's
 * or message store's row number), and reported sealed to `POST /device/v1/ledger` until the server has taken it.
 * Verity then reconciles each entry against the recording that captured it: an entry whose recording was dropped ends
 * `Missing`, one whose recording stopped early `Short`, one whose recording was held back `Captured late`.
 */

/** What a phone's call log and message store hold of a recording: calls (an aborted one lasted 0 s) and messages. */
const LEDGER_TYPE_OF: Partial<Record<Recording['type'], LedgerEntryReport['payload_type']>> = {
  Call: 'Call',
  AbortedCall: 'Call',
  SMS: 'SMS',
  MMS: 'MMS',
};

/** An entry's facts before the phone numbers it (each member of the union without its id). */
type LedgerFacts = LedgerEntryReport extends infer Entry ? (Entry extends unknown ? Omit<Entry, 'entry_id'> : never) : never;

interface PartyMeta {
  phone_number?: string;
  direction?: 'I' | 'O';
  duration?: number;
}

/**
 * The ledger entry the phone's own stores hold for `recording`, without its id (undefined for what no call log or
 * message store lists: interviews, photos, videos, and blocked calls, which the app turned away before they rang).
 * A call's number, direction and length are the call log's (the first second party); a message's its thread's.
 */
export function ledgerFactsOf(recording: Recording): LedgerFacts | undefined {
  const payloadType = LEDGER_TYPE_OF[recording.type];
  if (payloadType === undefined) return undefined;
  const meta = recording.meta as { payload_time: string; second_parties?: PartyMeta[]; message_parties?: PartyMeta[]; thread_id?: string; direction?: 'I' | 'O' };
  if (payloadType === 'Call') {
    const [party] = meta.second_parties ?? [];
    if (party?.phone_number === undefined || party.direction === undefined) throw new Error('A simulated call names its second party and direction');
    return { payload_type: 'Call', phone_number: party.phone_number, direction: party.direction, start_time: meta.payload_time, duration: party.duration ?? 0 };
  }
  const [party] = meta.message_parties ?? [];
  if (meta.thread_id === undefined || meta.direction === undefined) throw new Error('A simulated message names its thread and direction');
  return {
    payload_type: payloadType,
    thread_id: meta.thread_id,
    ...(party?.phone_number === undefined ? {} : { phone_number: party.phone_number }),
    direction: meta.direction,
    start_time: meta.payload_time,
  };
}

/** The stores' row ids: calls and messages are numbered apart, as Android's call log and message store are. */
const ID_PREFIX: Record<LedgerEntryReport['payload_type'], string> = { Call: 'call', SMS: 'msg', MMS: 'msg', RCS: 'msg' };

/**
 * Notes what the phone saw of `recordings` in its ledger (each a new id, never reused) and answers the entries
 * noted, in order. The ledger holds them until a report is accepted (`reportLedger`).
 */
export function noteInLedger(state: DeviceState, recordings: readonly Recording[]): LedgerEntryReport[] {
  const noted: LedgerEntryReport[] = [];
  for (const recording of recordings) {
    const facts = ledgerFactsOf(recording);
    if (facts === undefined) continue;
    state.ledger_sequence = (state.ledger_sequence ?? 0) + 1;
    noted.push({ ...facts, entry_id: `${ID_PREFIX[facts.payload_type]}-${state.ledger_sequence}` } as LedgerEntryReport);
  }
  state.ledger = [...(state.ledger ?? []), ...noted];
  return noted;
}

/**
 * The reports that carry `entries` (oldest first, at most LEDGER_ENTRIES_MAX each). Each report's `covered_to` is
 * only as far as the phone has told: just before the next report's first entry, and `now` for the last, so a report
 * that is accepted while a later one fails never claims to cover entries Verity has not been told of (their
 * recordings would be reported `Unexpected`). No entries: one report of the quiet period up to `now`.
 */
export function ledgerReports(entries: readonly LedgerEntryReport[], now: Date): LedgerReport[] {
  const sorted = [...entries].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
  const reports: LedgerReport[] = [];
  for (let start = 0; start === 0 || start < sorted.length; start += LEDGER_ENTRIES_MAX) {
    const chunk = sorted.slice(start, start + LEDGER_ENTRIES_MAX);
    const next = sorted[start + LEDGER_ENTRIES_MAX];
    const coveredTo = next === undefined ? now : new Date(Math.min(now.getTime(), Date.parse(next.start_time) - 1));
    reports.push({ covered_to: coveredTo.toISOString(), entries: chunk });
  }
  return reports;
}

export interface LedgerRun {
  /** Each report's answer, in order; the run stops at the first refusal. */
  results: Array<CallResult<LedgerAccepted>>;
  /** Entries the server has taken (stored now or already held). */
  reported: number;
  /** Entries still in the phone's ledger (a report was refused). */
  left: number;
}

/**
 * Reports the phone's ledger sealed to `POST /device/v1/ledger` (as telemetry is sealed), oldest entries first; the
 * entries of each accepted report leave the ledger, so a refused one is sent again by the next run (the server takes
 * an entry once by its id). `covered_to` moves on to `now` even with nothing to report: the phone is alive and quiet.
 */
export async function reportLedger(sim: Simulator, state: DeviceState, now = new Date()): Promise<LedgerRun> {
  const results: LedgerRun['results'] = [];
  let reported = 0;
  for (const report of ledgerReports(state.ledger ?? [], now)) {
    const result = await sealedUpload<LedgerAccepted>(sim, state, 'ledger', report);
    results.push(result);
    if (!result.ok) break;
    const sent = new Set(report.entries.map((entry) => entry.entry_id));
    state.ledger = (state.ledger ?? []).filter((entry) => !sent.has(entry.entry_id));
    state.ledger_covered_to = report.covered_to;
    reported += sent.size;
  }
  return { results, reported, left: state.ledger?.length ?? 0 };
}
