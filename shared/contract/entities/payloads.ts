import * as z from 'zod';
import { heldByField } from './legal-hold-ref.ts';
import { Direction, PayloadAuditAction, PayloadState, PayloadType, VoiceSource } from '../../constants/payloads.ts';
import { Actor } from './actor.ts';
import { CALL_PARTIES_LIMIT } from '../../constants/limits.ts';
import { FREE_FORM_TEXT_MAX, PAYLOAD_NOTES_MAX, SHORT_TEXT_MAX } from '../bounds.ts';
import {
  callPartiesList,
  DateTimeIso,
  FreeFormObject,
  Imei,
  InterviewPauseTimes,
  NonNegativeInt,
  openObject,
  PhoneNumber,
  safeNumber,
  SafeNumber,
  SmsLength,
} from '../fields.ts';
import { itemsAtLeast, itemsAtMost, lengthAtMost } from '../messages.ts';

const shortText = z.string().max(SHORT_TEXT_MAX, { error: lengthAtMost(SHORT_TEXT_MAX) });
const freeText = z.string().max(FREE_FORM_TEXT_MAX, { error: lengthAtMost(FREE_FORM_TEXT_MAX) });
const notes = z.string().max(PAYLOAD_NOTES_MAX, { error: lengthAtMost(PAYLOAD_NOTES_MAX) });
/** IMEIs a payload names (a phone has one or two; 8 as for device authentication). */
const IMEIS_MAX = 8;
import { Timestamp } from './common.ts';

/** A location fix as payload meta carries it. */
export const MetaLocation = openObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: safeNumber(0).optional(),
  altitude: SafeNumber.optional(),
  timestamp: shortText.optional(),
  provider: shortText.optional(),
});

/**
 * Meta common to every payload type (decrypted form). Objects are open: a newer app version may add fields the
 * server stores without understanding, each a bounded FreeFormValue (every number safe, every text and list bounded).
 */
const commonMetaShape = {
  iv: shortText.optional(),
  payload_reference: shortText.optional(),
  timezone: shortText.optional(),
  timezone_offset: SafeNumber.optional(),
  local_time: shortText.optional(),
  payload_time: DateTimeIso,
  payload_location: MetaLocation.nullable().optional(),
  last_known_location: MetaLocation.nullable().optional(),
  payload_carrier_metadata: FreeFormObject.nullable().optional(),
  imeis: z.array(Imei).max(IMEIS_MAX, { error: itemsAtMost(IMEIS_MAX) }).optional(),
};
export const CommonMeta = openObject(commonMetaShape);
export type CommonMeta = z.infer<typeof CommonMeta>;

export const SecondParty = openObject({
  phone_number: PhoneNumber,
  contact_name: freeText.nullable().optional(),
  direction: Direction,
  start_time: shortText.optional(),
  duration: NonNegativeInt.optional(),
  connection_time: shortText.nullable().optional(),
});
export type SecondParty = z.infer<typeof SecondParty>;

/** The common meta with a payload type's own fields, as one open object (its key bound counts them all). */
const metaWith = <S extends z.ZodRawShape>(shape: S) => openObject({ ...commonMetaShape, ...shape });

const callFields = {
  payload_end_time: DateTimeIso.optional(),
  voice_source: VoiceSource.optional(),
  signal_strength: SafeNumber.optional(),
  size: NonNegativeInt.optional(),
  is_intermittent: z.boolean().optional(),
  payload_full_duration: NonNegativeInt.optional(),
};

/** Call and aborted-call meta: 1 to 1000 second parties. */
export const CallMeta = metaWith({ ...callFields, second_parties: callPartiesList(SecondParty) });
export type CallMeta = z.infer<typeof CallMeta>;

/** Blocked-call meta: 0 to 1000 second parties, and why the call was blocked. */
export const BlockedCallMeta = metaWith({
  ...callFields,
  second_parties: callPartiesList(SecondParty, true),
  reason_for_blocking: freeText.optional(),
});
export type BlockedCallMeta = z.infer<typeof BlockedCallMeta>;

export const MessageParty = openObject({
  phone_number: PhoneNumber,
  contact_name: freeText.nullable().optional(),
});

const messageFields = {
  thread_id: shortText.optional(),
  direction: Direction,
  length: SmsLength.optional(),
  imsi: shortText.optional(),
};

/** MMS, SMS and RCS meta: at least 1 message party (at most 1000, as for call parties). */
export const MessageMeta = metaWith({
  ...messageFields,
  message_parties: z
    .array(MessageParty)
    .min(1, { error: itemsAtLeast(1) })
    .max(CALL_PARTIES_LIMIT, { error: itemsAtMost(CALL_PARTIES_LIMIT) }),
});
export type MessageMeta = z.infer<typeof MessageMeta>;

/** The older message form with a single second party. */
export const LegacyMessageMeta = metaWith({ ...messageFields, second_party: MessageParty });
export type LegacyMessageMeta = z.infer<typeof LegacyMessageMeta>;

export const InterviewMeta = metaWith({
  payload_duration: NonNegativeInt.optional(),
  payload_notes: notes.optional(),
  interview_pause_times: InterviewPauseTimes.optional(),
});
export type InterviewMeta = z.infer<typeof InterviewMeta>;

export const MediaMeta = metaWith({
  payload_duration: NonNegativeInt.optional(),
  payload_notes: notes.optional(),
});
export type MediaMeta = z.infer<typeof MediaMeta>;

/** Diagnostics bundles carry only the common meta (plus whatever the app adds). */
const DiagnosticsMeta = CommonMeta;

/** The meta schema for each payload type (the processing job validates decrypted meta with it). */
export const META_BY_TYPE = {
  Call: CallMeta,
  AbortedCall: CallMeta,
  BlockedCall: BlockedCallMeta,
  SMS: z.union([MessageMeta, LegacyMessageMeta]),
  MMS: z.union([MessageMeta, LegacyMessageMeta]),
  RCS: z.union([MessageMeta, LegacyMessageMeta]),
  Interview: InterviewMeta,
  Photo: MediaMeta,
  Video: MediaMeta,
  Diagnostics: DiagnosticsMeta,
} as const satisfies Record<PayloadType, z.ZodType>;

export const Payload = z.object({
  client: z.string().optional(),
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  /**
   * Who and what recorded it, in words: the device user's name ("Alice Archer") and the device's model and first phone
   * number, read from the device user and the device when the recording is read (one BatchGet per page,
   * lambdas/payloads/payload-names.ts), never stored on the recording, so a rename shows everywhere at once. Absent
   * when the record names nobody or holds no such field (a destroyed user's name is gone).
   */
  device_user_name: z.string().optional(),
  device_model: z.string().optional(),
  device_phone_number: z.string().optional(),
  device_ip: z.string().optional(),
  key_id: z.string().optional(),
  encrypted_dek: z.string().optional(),
  payload_reference: z.string(),
  payload_state: PayloadState,
  payload_type: PayloadType,
  s3_path: z.string().optional(),
  /** Decrypted meta once processed (type-specific, see META_BY_TYPE). */
  meta: z.record(z.string(), z.unknown()).optional(),
  /**
   * When it was recorded (UTC, from its meta at registration): lists sort and filter by it, and show it without
   * opening the sealed meta, which lists leave out.
   */
  payload_time: Timestamp.optional(),
  /** A message's conversation (plain from its meta once processed), so a list can group messages by thread. */
  thread_id: z.string().optional(),
  /** The recording's length in seconds (plain from its meta once processed). */
  payload_duration: z.number().min(0).optional(),
  checksum: z.string().optional(),
  is_legacy: z.boolean().default(false),
  is_late: z.boolean().default(false),
  legacy_payload_reference: z.string().optional(),
  legacy_processed_time: Timestamp.optional(),
  uploaded_at: Timestamp.optional(),
  processed_at: Timestamp.optional(),
  transferred_at: Timestamp.optional(),
  receipt_confirmed_at: Timestamp.optional(),
  receipt_confirmed_by: z.string().optional(),
  receipt_confirmed_by_actor: Actor.optional(),
  /** Comma-delimited. */
  second_party_numbers: z.string().optional(),
  /** Comma-delimited. */
  all_numbers: z.string().optional(),
  updated_at: Timestamp.optional(),
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  /** Active legal holds this record falls under (docs/data-model.md "Legal holds shown where the held thing appears"). */
  ...heldByField,
});
export type Payload = z.infer<typeof Payload>;

/** A payload's audit: plays, views, downloads and transfers, and receipts. */
export const PayloadAudit = z.object({
  payload_reference: z.string(),
  records: z.array(
    // `portal_user` is the actor's stable reference (./actor.ts); `actor` names them as they were at the time.
    z.object({ portal_user: z.string(), action: PayloadAuditAction, time: Timestamp, actor: Actor.optional() }),
  ),
  receipts: z.array(z.object({ user: z.string(), time: Timestamp, actor: Actor.optional() })),
});
export type PayloadAudit = z.infer<typeof PayloadAudit>;
