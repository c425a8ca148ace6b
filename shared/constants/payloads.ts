import * as z from 'zod';

/** Payload types (spec point 9). */
export const PAYLOAD_TYPES = [
  'AbortedCall',
  'BlockedCall',
  'Call',
  'Diagnostics',
  'Interview',
  'Photo',
  'MMS',
  'RCS',
  'SMS',
  'Video',
] as const;
export const PayloadType = z.enum(PAYLOAD_TYPES);
export type PayloadType = z.infer<typeof PayloadType>;

/** The calls group: one screen lists all three. */
export const CALL_PAYLOAD_TYPES = ['Call', 'AbortedCall', 'BlockedCall'] as const satisfies readonly PayloadType[];
/** The messages group. */
export const MESSAGE_PAYLOAD_TYPES = ['MMS', 'RCS', 'SMS'] as const satisfies readonly PayloadType[];
/** Payload types a transfer may export (Diagnostics and the call variants without media are not transferable). */
export const TRANSFERABLE_PAYLOAD_TYPES = [
  'Call',
  'Interview',
  'Photo',
  'MMS',
  'RCS',
  'SMS',
  'Video',
] as const satisfies readonly PayloadType[];
export const TransferablePayloadType = z.enum(TRANSFERABLE_PAYLOAD_TYPES);
export type TransferablePayloadType = z.infer<typeof TransferablePayloadType>;

/** Payload lifecycle (spec point 4). Transferred applies to legacy payloads only. */
export const PAYLOAD_STATES = [
  'NotRecorded',
  'Recorded',
  'Uploaded',
  'Processed',
  'Transferred',
  'Deleted',
  'Destroyed',
  'Failed',
  'Scanning',
  'Quarantined',
] as const;
export const PayloadState = z.enum(PAYLOAD_STATES);
export type PayloadState = z.infer<typeof PayloadState>;

/** Payload state as reported back to a device. */
export const PAYLOAD_STATES_DEVICE = ['pending', 'processed', 'failed', 'not_found'] as const;
export const PayloadStateDevice = z.enum(PAYLOAD_STATES_DEVICE);
export type PayloadStateDevice = z.infer<typeof PayloadStateDevice>;

/** Outcome of a request for a payload's data link. */
export const PAYLOAD_DATA_STATUSES = ['Ok', 'NoS3Url', 'NoMatchingRecord', 'GroupNotAuthorised', 'TypeNotAuthorised'] as const;
export const PayloadDataStatus = z.enum(PAYLOAD_DATA_STATUSES);
export type PayloadDataStatus = z.infer<typeof PayloadDataStatus>;

/** Call and message direction: incoming, outgoing, conference call. */
export const DIRECTIONS = ['I', 'O', 'CC'] as const;
export const Direction = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof Direction>;

/** Where a call's audio came from. */
export const VOICE_SOURCES = ['MIC', 'BT', 'HEADSET'] as const;
export const VoiceSource = z.enum(VOICE_SOURCES);
export type VoiceSource = z.infer<typeof VoiceSource>;

/**
 * Data link action on payload data endpoints (default download): `play` starts a call, interview or video, `view`
 * opens a photo or a message's content on its page (our addition to the spec's two), `download` takes a copy. Play and
 * view need `payloads:Play`, download `payloads:Download` (the data endpoints' `actionByQuery`).
 */
export const DATA_ACTIONS = ['play', 'view', 'download'] as const;
export const DataAction = z.enum(DATA_ACTIONS);
export type DataAction = z.infer<typeof DataAction>;

/** Which timestamp a payload list's date range filters on (default payload_time). */
export const PAYLOAD_DATE_FILTER_TYPES = ['payload_time', 'updated_at', 'processed_at'] as const;
export const PayloadDateFilterType = z.enum(PAYLOAD_DATE_FILTER_TYPES);
export type PayloadDateFilterType = z.infer<typeof PayloadDateFilterType>;

/**
 * Payload audit actions: each data link given (play, view, download; one record per link) and each transfer. The spec's
 * play, download and transfer keep their meaning; `view` is a photo or a message's content opened on its page;
 * `production` is the recording written into a production (docs/productions.md), one record per production, kept
 * apart from `transfer` so it never counts as a retention policy's required transfer.
 */
export const PAYLOAD_AUDIT_ACTIONS = ['play', 'view', 'download', 'transfer', 'production'] as const;
export const PayloadAuditAction = z.enum(PAYLOAD_AUDIT_ACTIONS);
export type PayloadAuditAction = z.infer<typeof PayloadAuditAction>;
