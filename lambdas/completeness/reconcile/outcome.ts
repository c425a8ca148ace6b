import { SHORT_TOLERANCE_SECONDS, type LedgerOutcome, type LedgerPayloadType } from '#shared/constants/completeness.ts';

/** What an entry's outcome reads of the entry. */
export interface OutcomeEntry {
  payload_type: LedgerPayloadType;
  /** Seconds by the call log (calls). */
  duration?: number | undefined;
  due_at: string;
  /** Its outcome before this recording (a `Missing` entry captured now was late, whatever the upload time says). */
  outcome?: LedgerOutcome | undefined;
}

/** What an entry's outcome reads of the recording that captured it. */
export interface OutcomeRecording {
  /** Seconds: the meta's `payload_full_duration`, else the recording's `payload_duration`. */
  recording_duration?: number | undefined;
  is_intermittent?: boolean | undefined;
  uploaded_at?: string | undefined;
  /** The recording itself is late (uploaded more than LATE_PAYLOAD_DAYS after it was recorded). */
  is_late?: boolean | undefined;
}

export type MatchedOutcome = Extract<LedgerOutcome, 'Captured' | 'Captured late' | 'Short'>;

/**
 * The outcome of an entry matched to its recording, in one place (docs/completeness.md, "Outcomes"): `Short` when a
 * call's recording is intermittent or shorter than the call by more than SHORT_TOLERANCE_SECONDS (a message is never
 * Short; a recording of unknown length is not judged short); else `Captured late` when it was uploaded after the
 * entry's grace period, is itself late, or the entry had already gone `Missing`; else `Captured`.
 */
export function outcomeOfMatch(entry: OutcomeEntry, recording: OutcomeRecording): MatchedOutcome {
  if (entry.payload_type === 'Call') {
    if (recording.is_intermittent === true) return 'Short';
    const missingSeconds = (entry.duration ?? 0) - (recording.recording_duration ?? Number.POSITIVE_INFINITY);
    if (missingSeconds > SHORT_TOLERANCE_SECONDS) return 'Short';
  }
  const uploadedLate = recording.uploaded_at !== undefined && Date.parse(recording.uploaded_at) > Date.parse(entry.due_at);
  if (uploadedLate || recording.is_late === true || entry.outcome === 'Missing') return 'Captured late';
  return 'Captured';
}

/** When an entry stops being `Pending`: its end (start plus the call's duration) plus the account's grace hours. */
export function dueAtOf(startTime: string, duration: number | undefined, graceHours: number): string {
  return new Date(Date.parse(startTime) + ((duration ?? 0) + graceHours * 3600) * 1000).toISOString();
}

/** The UTC day (YYYY-MM-DD) an entry or recording counts on: that of its time. */
export function dayOf(time: string): string {
  return new Date(Date.parse(time)).toISOString().slice(0, 10);
}
