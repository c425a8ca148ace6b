import { Direction } from '#shared/constants/payloads.ts';
import type { AwaitingEntryItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryReference, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import type { EntryFacts, RecordingFacts } from './match.ts';
import { comparableNumbers } from './numbers.ts';
import { dayOf, type OutcomeRecording } from './outcome.ts';

/** A recording as reconciliation sees it: what matching reads, what an outcome reads, and where it counts. */
export interface ReconciledRecording extends RecordingFacts, OutcomeRecording {
  device_reference: string;
  device_user_reference?: string | undefined;
  group?: string | undefined;
}

const partiesOf = (meta: Record<string, unknown>): Array<Record<string, unknown>> =>
  [
    ...(Array.isArray(meta.second_parties) ? meta.second_parties : []),
    ...(Array.isArray(meta.message_parties) ? meta.message_parties : []),
    ...(meta.second_party !== undefined ? [meta.second_party] : []),
  ].filter((party): party is Record<string, unknown> => party !== null && typeof party === 'object');

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * A processed Call, AbortedCall, SMS, MMS or RCS recording as reconciliation reads it, from its stored item and its
 * opened meta (validated by processing against the type's schema): a message's direction is its own, a call's that of
 * its first second party; the numbers are every party's; the length is the meta's `payload_full_duration`, else its
 * `payload_duration`. Undefined when it has no time or no direction to match by.
 */
export function reconciledRecordingOf(payload: PayloadItem, meta: Record<string, unknown>): ReconciledRecording | undefined {
  const parties = partiesOf(meta);
  const direction = Direction.safeParse(meta.direction ?? parties[0]?.direction);
  if (payload.payload_time === undefined || !direction.success) return undefined;
  const duration = numberOr(meta.payload_full_duration) ?? numberOr(meta.payload_duration) ?? payload.payload_duration;
  const numbers = parties.map((party) => party.phone_number).filter((number): number is string => typeof number === 'string');
  const group = payload.group === undefined || payload.group.length === 0 ? undefined : payload.group;
  return {
    payload_reference: payload.payload_reference,
    payload_type: payload.payload_type,
    direction: direction.data,
    payload_time: new Date(Date.parse(payload.payload_time)).toISOString(),
    numbers: comparableNumbers(numbers),
    ...(typeof meta.thread_id === 'string' && meta.thread_id !== '' ? { thread_id: meta.thread_id } : {}),
    ...(duration === undefined ? {} : { recording_duration: duration }),
    ...(meta.is_intermittent === true ? { is_intermittent: true } : {}),
    ...(payload.uploaded_at === undefined ? {} : { uploaded_at: payload.uploaded_at }),
    ...(payload.is_late === true ? { is_late: true } : {}),
    device_reference: payload.device_reference,
    ...(payload.device_user_reference === undefined ? {} : { device_user_reference: payload.device_user_reference }),
    ...(group === undefined ? {} : { group }),
  };
}

/** The marker a recording that found no entry leaves: it waits there for its entry (awaiting-entry.ts). */
export function markerOf(recording: ReconciledRecording, processedAt: string): AwaitingEntryItem {
  return {
    payload_reference: recording.payload_reference,
    payload_type: recording.payload_type,
    payload_time: recording.payload_time,
    device_reference: recording.device_reference,
    direction: recording.direction,
    numbers: [...recording.numbers],
    ...(recording.thread_id === undefined ? {} : { thread_id: recording.thread_id }),
    ...(recording.recording_duration === undefined ? {} : { recording_duration: recording.recording_duration }),
    ...(recording.is_intermittent === undefined ? {} : { is_intermittent: recording.is_intermittent }),
    uploaded_at: recording.uploaded_at ?? processedAt,
    ...(recording.is_late === undefined ? {} : { is_late: recording.is_late }),
    ...(recording.device_user_reference === undefined ? {} : { device_user_reference: recording.device_user_reference }),
    ...(recording.group === undefined ? {} : { group: recording.group }),
    unexpected: false,
    day: dayOf(recording.payload_time),
  };
}

/** A waiting marker as the recording it stands for. */
export function recordingOfMarker(marker: AwaitingEntryItem): ReconciledRecording {
  return {
    payload_reference: marker.payload_reference,
    payload_type: marker.payload_type,
    direction: marker.direction,
    payload_time: marker.payload_time,
    numbers: marker.numbers,
    thread_id: marker.thread_id,
    recording_duration: marker.recording_duration,
    is_intermittent: marker.is_intermittent,
    uploaded_at: marker.uploaded_at,
    is_late: marker.is_late,
    device_reference: marker.device_reference,
    device_user_reference: marker.device_user_reference,
    group: marker.group,
  };
}

/** A stored entry as matching reads it. */
export function entryFactsOf(entry: LedgerEntryItem): EntryFacts {
  return {
    entry_id: entry.entry_id,
    reference: ledgerEntryReference(entry.device_reference, entry.entry_id),
    payload_type: entry.payload_type,
    direction: entry.direction,
    start_time: entry.start_time,
    duration: entry.duration,
    phone_number: entry.phone_number,
    thread_id: entry.thread_id,
  };
}

/** What a matched entry takes from its recording (SET in the write that matches them). */
export function capturedFields(recording: ReconciledRecording): Pick<LedgerEntryItem, 'payload_reference' | 'recording_duration' | 'is_intermittent' | 'uploaded_at'> {
  return {
    payload_reference: recording.payload_reference,
    ...(recording.recording_duration === undefined ? {} : { recording_duration: recording.recording_duration }),
    ...(recording.is_intermittent === true ? { is_intermittent: true } : {}),
    ...(recording.uploaded_at === undefined ? {} : { uploaded_at: recording.uploaded_at }),
  };
}
