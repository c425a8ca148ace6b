import { z } from 'zod';
import { Direction, PayloadState, PayloadType, VoiceSource } from '../../constants/payloads.ts';
import {
  callPartiesList,
  DateTimeIso,
  Imei,
  InterviewPauseTimes,
  NonNegativeInt,
  PhoneNumber,
  SmsLength,
} from '../fields.ts';
import { itemsAtLeast } from '../messages.ts';
import { Timestamp } from './common.ts';

/** A location fix as payload meta carries it. */
export const MetaLocation = z.looseObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().min(0).optional(),
  altitude: z.number().optional(),
  timestamp: z.string().optional(),
  provider: z.string().optional(),
});

/**
 * Meta common to every payload type (decrypted form). Objects are loose: a newer app version may add fields
 * the server stores without understanding.
 */
export const CommonMeta = z.looseObject({
  iv: z.string().optional(),
  payload_reference: z.string().optional(),
  timezone: z.string().optional(),
  timezone_offset: z.number().optional(),
  local_time: z.string().optional(),
  payload_time: DateTimeIso,
  payload_location: MetaLocation.nullable().optional(),
  last_known_location: MetaLocation.nullable().optional(),
  payload_carrier_metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  imeis: z.array(Imei).optional(),
});
export type CommonMeta = z.infer<typeof CommonMeta>;

export const SecondParty = z.looseObject({
  phone_number: PhoneNumber,
  contact_name: z.string().nullable().optional(),
  direction: Direction,
  start_time: z.string().optional(),
  duration: NonNegativeInt.optional(),
  connection_time: z.string().nullable().optional(),
});
export type SecondParty = z.infer<typeof SecondParty>;

const callFields = {
  payload_end_time: DateTimeIso.optional(),
  voice_source: VoiceSource.optional(),
  signal_strength: z.number().optional(),
  size: NonNegativeInt.optional(),
  is_intermittent: z.boolean().optional(),
  payload_full_duration: NonNegativeInt.optional(),
};

/** Call and aborted-call meta: 1 to 1000 second parties. */
export const CallMeta = CommonMeta.extend({ ...callFields, second_parties: callPartiesList(SecondParty) });
export type CallMeta = z.infer<typeof CallMeta>;

/** Blocked-call meta: 0 to 1000 second parties, and why the call was blocked. */
export const BlockedCallMeta = CommonMeta.extend({
  ...callFields,
  second_parties: callPartiesList(SecondParty, true),
  reason_for_blocking: z.string().optional(),
});
export type BlockedCallMeta = z.infer<typeof BlockedCallMeta>;

export const MessageParty = z.looseObject({
  phone_number: PhoneNumber,
  contact_name: z.string().nullable().optional(),
});

const messageFields = {
  thread_id: z.string().optional(),
  direction: Direction,
  length: SmsLength.optional(),
  imsi: z.string().optional(),
};

/** MMS, SMS and RCS meta: at least 1 message party. */
export const MessageMeta = CommonMeta.extend({
  ...messageFields,
  message_parties: z.array(MessageParty).min(1, { error: itemsAtLeast(1) }),
});
export type MessageMeta = z.infer<typeof MessageMeta>;

/** The older message form with a single second party. */
export const LegacyMessageMeta = CommonMeta.extend({ ...messageFields, second_party: MessageParty });
export type LegacyMessageMeta = z.infer<typeof LegacyMessageMeta>;

export const InterviewMeta = CommonMeta.extend({
  payload_duration: NonNegativeInt.optional(),
  payload_notes: z.string().optional(),
  interview_pause_times: InterviewPauseTimes.optional(),
});
export type InterviewMeta = z.infer<typeof InterviewMeta>;

export const MediaMeta = CommonMeta.extend({
  payload_duration: NonNegativeInt.optional(),
  payload_notes: z.string().optional(),
});
export type MediaMeta = z.infer<typeof MediaMeta>;

/** Diagnostics bundles carry only the common meta (plus whatever the app adds). */
export const DiagnosticsMeta = CommonMeta;

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
  /** Comma-delimited. */
  second_party_numbers: z.string().optional(),
  /** Comma-delimited. */
  all_numbers: z.string().optional(),
  updated_at: Timestamp.optional(),
  updated_by: z.string().optional(),
});
export type Payload = z.infer<typeof Payload>;

/** A payload's audit: plays, downloads and transfers, and receipts. */
export const PayloadAudit = z.object({
  payload_reference: z.string(),
  records: z.array(
    z.object({ portal_user: z.string(), action: z.enum(['play', 'download', 'transfer']), time: Timestamp }),
  ),
  receipts: z.array(z.object({ user: z.string(), time: Timestamp })),
});
export type PayloadAudit = z.infer<typeof PayloadAudit>;
