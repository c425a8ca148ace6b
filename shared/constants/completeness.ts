import * as z from 'zod';

/**
 * Capture completeness: the phone reports what its own call log and message store saw (its ledger), and Verity
 * reconciles each entry against the recording that captured it (docs/completeness.md has the rules).
 */

/** What a ledger entry can be: a call from the call log, or a message from the message store. */
export const LEDGER_PAYLOAD_TYPES = ['Call', 'SMS', 'MMS', 'RCS'] as const;
export const LedgerPayloadType = z.enum(LEDGER_PAYLOAD_TYPES);
export type LedgerPayloadType = z.infer<typeof LedgerPayloadType>;

/**
 * A ledger entry's outcome:
 * - `Captured`: a matching recording arrived within the grace period;
 * - `Captured late`: it arrived after the grace period (the entry may have shown `Missing` meanwhile), or the
 *   recording itself is late (uploaded more than LATE_PAYLOAD_DAYS after it was recorded);
 * - `Short`: the matching recording is shorter than the call by more than SHORT_TOLERANCE_SECONDS, or intermittent;
 * - `Pending`: no recording yet, still within the grace period;
 * - `Missing`: no recording, past the grace period.
 */
export const LEDGER_OUTCOMES = ['Captured', 'Captured late', 'Short', 'Pending', 'Missing'] as const;
export const LedgerOutcome = z.enum(LEDGER_OUTCOMES);
export type LedgerOutcome = z.infer<typeof LedgerOutcome>;

/**
 * What a row of the report can be filtered by: an entry's outcome, or `Unexpected`, a recording (call or message)
 * that no ledger entry explains once the phone's ledger covers its time and the grace period has passed.
 */
export const COMPLETENESS_OUTCOMES = [...LEDGER_OUTCOMES, 'Unexpected'] as const;
export const CompletenessOutcome = z.enum(COMPLETENESS_OUTCOMES);
export type CompletenessOutcome = z.infer<typeof CompletenessOutcome>;

/** How the report rows are cut: the tenant's day, each group's, each device user's or each device's. */
export const COMPLETENESS_DIMENSIONS = ['tenant', 'group', 'device_user', 'device'] as const;
export const CompletenessDimension = z.enum(COMPLETENESS_DIMENSIONS);
export type CompletenessDimension = z.infer<typeof CompletenessDimension>;

/** Ledger entries in one report (one request); more is a 400, the phone sends the rest in the next report. */
export const LEDGER_ENTRIES_MAX = 200;
/** A ledger entry may lie this far in the phone's future (clock skew); later is a 400. */
export const LEDGER_FUTURE_SKEW_SECONDS = 300;
/** A recording matches an entry when their start times differ by at most this (calls and messages). */
export const MATCH_TOLERANCE_SECONDS = 120;
/** A call's recording shorter than the call by more than this is `Short`. */
export const SHORT_TOLERANCE_SECONDS = 10;
/** A call longer than a day is not a call log entry (the phone's own bound). */
export const LEDGER_CALL_SECONDS_MAX = 86_400;
/** Hours an entry stays `Pending` before it is `Missing` (account default `completeness_grace_hours`). */
export const COMPLETENESS_GRACE_HOURS_DEFAULT = 24;
/** Hours without a ledger report or telemetry before an activated device is silent (account default `silent_device_hours`). */
export const SILENT_DEVICE_HOURS_DEFAULT = 24;
/** Bounds of both account defaults. */
export const COMPLETENESS_HOURS_MIN = 1;
export const COMPLETENESS_HOURS_MAX = 24 * 14;
/** A report spans at most this many days (`from` to `to`). */
export const COMPLETENESS_PERIOD_DAYS_MAX = 366;
