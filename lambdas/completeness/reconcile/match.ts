import { MATCH_TOLERANCE_SECONDS, type LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { Direction, PayloadType } from '#shared/constants/payloads.ts';
import { comparableNumber } from './numbers.ts';

/** What matching reads of a ledger entry. */
export interface EntryFacts {
  entry_id: string;
  /** `<device_reference>/<entry_id>`: orders entries of equal distance. */
  reference: string;
  payload_type: LedgerPayloadType;
  direction: Direction;
  /** ISO UTC. */
  start_time: string;
  duration?: number | undefined;
  phone_number?: string | undefined;
  thread_id?: string | undefined;
}

/** What matching reads of a recording. */
export interface RecordingFacts {
  payload_reference: string;
  payload_type: PayloadType;
  direction: Direction;
  /** ISO UTC. */
  payload_time: string;
  /** The other parties' numbers, comparable (numbers.ts). */
  numbers: readonly string[];
  thread_id?: string | undefined;
}

/** The ledger type a recording of this type is reported as, or undefined for a recording no ledger lists. */
export function ledgerTypeOf(payloadType: PayloadType): LedgerPayloadType | undefined {
  switch (payloadType) {
    case 'Call':
    case 'AbortedCall':
      return 'Call';
    case 'SMS':
    case 'MMS':
    case 'RCS':
      return payloadType;
    default:
      return undefined;
  }
}

const TOLERANCE_MS = MATCH_TOLERANCE_SECONDS * 1000;

/** Milliseconds between an entry's start and a recording's time (absolute). */
export function distanceOf(entry: Pick<EntryFacts, 'start_time'>, recording: Pick<RecordingFacts, 'payload_time'>): number {
  return Math.abs(Date.parse(entry.start_time) - Date.parse(recording.payload_time));
}

/** The same kind of thing: a call with a call (an aborted call only for a call never connected), a message with its own type. */
function sameKind(entry: EntryFacts, recording: RecordingFacts): boolean {
  if (ledgerTypeOf(recording.payload_type) !== entry.payload_type) return false;
  return recording.payload_type !== 'AbortedCall' || entry.duration === 0;
}

/** The same other party: a call by number; a message by thread when both name one, else by number. */
function sameParty(entry: EntryFacts, recording: RecordingFacts): boolean {
  if (entry.payload_type !== 'Call' && entry.thread_id !== undefined && recording.thread_id !== undefined) return entry.thread_id === recording.thread_id;
  const number = comparableNumber(entry.phone_number);
  return number !== undefined && recording.numbers.includes(number);
}

/**
 * Whether a ledger entry and a recording of the same device are the same call or message (docs/completeness.md,
 * "Reconciliation"): same kind, same direction, start times within MATCH_TOLERANCE_SECONDS (inclusive), same party.
 */
export function isMatch(entry: EntryFacts, recording: RecordingFacts): boolean {
  return sameKind(entry, recording) && entry.direction === recording.direction && distanceOf(entry, recording) <= TOLERANCE_MS && sameParty(entry, recording);
}

/** Of the recordings matching an entry, the nearest in time; ties go to the lowest reference. */
export function chooseRecording<R extends RecordingFacts>(entry: EntryFacts, recordings: readonly R[]): R | undefined {
  return nearest(recordings.filter((recording) => isMatch(entry, recording)), (recording) => distanceOf(entry, recording), (recording) => recording.payload_reference);
}

/** Of the entries matching a recording, the nearest in time; ties go to the lowest reference. */
export function chooseEntry<E extends EntryFacts>(recording: RecordingFacts, entries: readonly E[]): E | undefined {
  return nearest(entries.filter((entry) => isMatch(entry, recording)), (entry) => distanceOf(entry, recording), (entry) => entry.reference);
}

function nearest<T>(candidates: readonly T[], distance: (candidate: T) => number, reference: (candidate: T) => string): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) {
    if (best === undefined) {
      best = candidate;
      continue;
    }
    const [d, bestD] = [distance(candidate), distance(best)];
    if (d < bestD || (d === bestD && reference(candidate) < reference(best))) best = candidate;
  }
  return best;
}

/**
 * The sort-key range holding every time within MATCH_TOLERANCE_SECONDS of `time` in a list keyed `<ISO time>#<ref>`
 * (ledger-entry.ts, awaiting-entry.ts): one Query, whatever the device's history.
 */
export function matchWindow(time: string): { between: [string, string] } {
  const at = Date.parse(time);
  return { between: [new Date(at - TOLERANCE_MS).toISOString(), `${new Date(at + TOLERANCE_MS).toISOString()}~`] };
}
