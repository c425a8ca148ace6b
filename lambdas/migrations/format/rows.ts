import * as z from 'zod';
import { PayloadType } from '#shared/constants/payloads.ts';
import {
  DateTimeIso,
  DeviceReference,
  DeviceUserReference,
  Email,
  ExpectedDeviceCount,
  FirstName,
  GroupReference,
  Imei,
  ServiceList,
  Sha256Hex,
  Surname,
  text,
} from '#shared/contract/fields.ts';
import { itemsAtMost } from '#shared/contract/messages.ts';

/**
 * The rows of a legacy export (docs/migration-format.md), one zod schema per `kind`. Objects are strict, so a field
 * the format does not know is a problem rather than data dropped silently.
 */

export const EXPORT_FORMAT = 'verity-legacy-export';
export const EXPORT_VERSION = 1;

/** The largest media a recording row may carry, decoded (the row, not the file, bounds the reader's memory). */
export const MAX_MEDIA_BYTES = 32 * 1024 * 1024;
/** Room on a line for everything but the media's base64 (meta is at most 256 KiB sealed; the rest is small). */
const LINE_ROOM_BESIDES_MEDIA = 1024 * 1024;

/** Base64 characters that decode to `bytes` bytes (padded). */
export function base64LengthOf(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The longest line the reader holds for a media cap (a longer one is skipped to its end, never held). */
export function maxLineBytesFor(maxMediaBytes: number): number {
  return base64LengthOf(maxMediaBytes) + LINE_ROOM_BESIDES_MEDIA;
}

export const ExportHeader = z.strictObject({
  kind: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION, { error: `Must be ${EXPORT_VERSION}` }),
  exported_at: DateTimeIso.optional(),
  source: text(1, 255).optional(),
});
export type ExportHeader = z.infer<typeof ExportHeader>;

const OptionalText = text(1, 255).optional();

export const GroupRow = z.strictObject({
  kind: z.literal('group'),
  group_reference: GroupReference,
});
export type GroupRow = z.infer<typeof GroupRow>;

export const DeviceUserRow = z.strictObject({
  kind: z.literal('device_user'),
  device_user_reference: DeviceUserReference,
  group: GroupReference,
  services: ServiceList,
  expected_device_count: ExpectedDeviceCount,
  email: Email.optional(),
  first_name: FirstName.optional(),
  surname: Surname.optional(),
  is_active: z.boolean(),
  onboard_date: DateTimeIso.optional(),
  offboard_date: DateTimeIso.optional(),
});
export type DeviceUserRow = z.infer<typeof DeviceUserRow>;

/** A phone has one or two IMEIs; 8 as for device authentication. */
const IMEIS_MAX = 8;

export const DeviceRow = z.strictObject({
  kind: z.literal('device'),
  device_reference: DeviceReference,
  device_user_reference: DeviceUserReference.optional(),
  legacy_phone_number: OptionalText,
  imeis: z.array(Imei).max(IMEIS_MAX, { error: itemsAtMost(IMEIS_MAX) }).default([]),
  is_deactivated: z.boolean(),
  activated_at: DateTimeIso.optional(),
  deactivation_date: DateTimeIso.optional(),
  model: OptionalText,
  os_version: OptionalText,
  app_version: OptionalText,
  serial_number: OptionalText,
});
export type DeviceRow = z.infer<typeof DeviceRow>;

export const LEGACY_STATES = ['Processed', 'Recorded'] as const;

/** The media as the file carries it: base64 `data` (checked and decoded by the reader, not by zod). */
export const MediaField = z.strictObject({
  content_type: text(1, 255),
  file_name: OptionalText,
  data: z.string({ error: 'Must be base64 text' }),
});

/**
 * A recording as written in the file. `meta` is only "an object" here: the reader checks it with the payload type's
 * own meta schema (`META_BY_TYPE`, the same one processing uses), so its problems read `meta.<path>: …`.
 */
export const RecordingRowInput = z.strictObject({
  kind: z.literal('recording'),
  legacy_payload_reference: text(1, 255),
  payload_type: PayloadType,
  legacy_state: z.enum(LEGACY_STATES),
  device_reference: DeviceReference,
  device_user_reference: DeviceUserReference.optional(),
  meta: z.record(z.string(), z.unknown()),
  uploaded_at: DateTimeIso.optional(),
  legacy_processed_time: DateTimeIso.optional(),
  checksum: Sha256Hex.optional(),
  media: MediaField.optional(),
});

/** A recording row once read: its meta checked, its media decoded and matched with its checksum. */
export interface RecordingRow extends Omit<z.infer<typeof RecordingRowInput>, 'media' | 'checksum'> {
  /** The recording's time (UTC), from `meta.payload_time`. */
  payload_time: string;
  /** SHA-256 hex, lower case; present exactly when media is. */
  checksum?: string;
  media?: { content_type: string; file_name?: string; bytes: Buffer };
}

export type ExportRow = GroupRow | DeviceUserRow | DeviceRow | RecordingRow;
export type ExportRowKind = ExportRow['kind'];
export const EXPORT_ROW_KINDS = ['group', 'device_user', 'device', 'recording'] as const satisfies readonly ExportRowKind[];
