import * as z from 'zod';
import { LEDGER_CALL_SECONDS_MAX, LEDGER_ENTRIES_MAX, CompletenessOutcome } from '../../constants/completeness.ts';
import { Direction, PayloadType } from '../../constants/payloads.ts';
import { DateTimeIso, integer, text } from '../fields.ts';
import { itemsAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';

/**
 * Capture completeness (shared/constants/completeness.ts). The phone's ledger arrives sealed like telemetry: the
 * device endpoint's body is a SealedUpload whose meta opens to a LedgerReport.
 */

/** The phone's stable id of a call log row or a message (unique on that phone; another phone's ids are its own). */
const EntryId = text(1, 128);

/** A call the phone's call log saw. */
export const LedgerCallReport = z.strictObject({
  entry_id: EntryId,
  payload_type: z.literal('Call'),
  phone_number: text(1, 255),
  direction: Direction,
  start_time: DateTimeIso,
  /** Seconds from connection to hang-up, as the call log has it (0 for a call never connected). */
  duration: integer(0, LEDGER_CALL_SECONDS_MAX),
});

/** A message the phone's message store saw: its thread, direction and time, never its content. */
export const LedgerMessageReport = z.strictObject({
  entry_id: EntryId,
  payload_type: z.enum(['SMS', 'MMS', 'RCS']),
  thread_id: text(1, 255),
  /** The other party's number when the store has one (group threads may not). */
  phone_number: text(1, 255).optional(),
  direction: Direction,
  start_time: DateTimeIso,
});

export const LedgerEntryReport = z.discriminatedUnion('payload_type', [LedgerCallReport, LedgerMessageReport]);
export type LedgerEntryReport = z.infer<typeof LedgerEntryReport>;

/**
 * One ledger report (the opened meta of `POST /device/v1/ledger`): what the phone saw since its last report, and the
 * time its call log and message store were read up to. A report with no entries is a quiet period, and still tells
 * Verity the phone is alive and its ledger covers up to `covered_to`. Entry ids are unique within a report.
 */
export const LedgerReport = z.strictObject({
  covered_to: DateTimeIso,
  entries: z
    .array(LedgerEntryReport)
    .max(LEDGER_ENTRIES_MAX, { error: itemsAtMost(LEDGER_ENTRIES_MAX) })
    .superRefine((entries, context) => {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        if (seen.has(entry.entry_id)) context.addIssue({ code: 'custom', path: [index, 'entry_id'], message: 'Appears earlier in this report' });
        seen.add(entry.entry_id);
      });
    }),
});
export type LedgerReport = z.infer<typeof LedgerReport>;

/** What the ledger endpoint answers: entries stored now, and entries it already held with the same facts. */
export const LedgerAccepted = z.object({ accepted: z.int().min(0), already_recorded: z.int().min(0) });
export type LedgerAccepted = z.infer<typeof LedgerAccepted>;

/**
 * One row of `GET completeness/entries`: a ledger entry with its outcome and the recording that captured it, or (with
 * outcome `Unexpected`) a recording no entry explains. People and devices are named as recordings name them.
 */
export const CompletenessEntry = z.object({
  /** `<device_reference>/<entry_id>` for a ledger entry, the payload reference for an Unexpected recording. */
  entry_reference: z.string(),
  entry_id: z.string().optional(),
  outcome: CompletenessOutcome,
  payload_type: PayloadType,
  direction: Direction.optional(),
  phone_number: z.string().optional(),
  thread_id: z.string().optional(),
  start_time: Timestamp,
  /** The call's length by the phone's call log, seconds. */
  duration: z.number().min(0).optional(),
  device_reference: z.string(),
  device_model: z.string().optional(),
  device_user_reference: z.string().optional(),
  device_user_name: z.string().optional(),
  group: z.string().optional(),
  /** The recording that captured it, and what it holds. */
  payload_reference: z.string().optional(),
  recording_duration: z.number().min(0).optional(),
  is_intermittent: z.boolean().optional(),
  uploaded_at: Timestamp.optional(),
  reported_at: Timestamp.optional(),
  /** When the entry last changed outcome (matched, or past its grace period). */
  outcome_at: Timestamp.optional(),
  /** Until when it stays `Pending` (the grace period's end). */
  due_at: Timestamp.optional(),
});
export type CompletenessEntry = z.infer<typeof CompletenessEntry>;

/**
 * Counts of one day (UTC) for one cut (tenant, group, device user, device): `expected` is the ledger entries the
 * phones saw; `captured`, `captured_late`, `short`, `pending` and `missing` split them by outcome (they add up to
 * `expected`); `unexpected` counts recordings no entry explains. `share_complete` is (captured + captured_late) over
 * the entries past Pending, absent when there are none.
 */
export const CompletenessCounts = z.object({
  expected: z.int().min(0),
  captured: z.int().min(0),
  captured_late: z.int().min(0),
  short: z.int().min(0),
  pending: z.int().min(0),
  missing: z.int().min(0),
  unexpected: z.int().min(0),
  share_complete: z.number().min(0).max(1).optional(),
});
export type CompletenessCounts = z.infer<typeof CompletenessCounts>;

/** One row of a completeness report: one day for the cut it names. */
export const CompletenessRow = CompletenessCounts.extend({
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  group: z.string().optional(),
  device_user_reference: z.string().optional(),
  device_user_name: z.string().optional(),
  device_reference: z.string().optional(),
  device_model: z.string().optional(),
});
export type CompletenessRow = z.infer<typeof CompletenessRow>;
