import type { PayloadType } from '#shared/constants/payloads.ts';

/** The longest name part of a file name (a long name still leaves the time and the reference readable). */
const MAX_NAME_CHARS = 40;

/** What a downloaded recording's file name is made of. */
export interface DownloadNameFacts {
  payloadType: PayloadType;
  /** The device user's name as the devices screen shows it ("Alice Archer"); absent or empty: left out. */
  personName?: string | undefined;
  /** When it was recorded (ISO 8601; shown in UTC); absent or unreadable: left out. */
  recordedAt?: string | undefined;
  payloadReference: string;
  /** Without the dot ("wav"): from the recording's media type (media-type.ts). */
  extension: string;
}

/**
 * The file name a download is saved under: `<kind>-<person>-<yyyymmdd>-<hhmm>-<reference>.<extension>`, e.g.
 * `call-alice-archer-20261127-0759-01M8H78J1W54WGTAQMCE5XW2VV.wav`. The time is UTC (a file keeps no time zone, and a
 * reviewer comparing files from phones in different zones gets one order); the reference keeps names unique and leads
 * back to the record. Whatever a device user's name holds (slashes, quotes, control characters, dots) only letters and
 * digits survive, accents folded to their base letter; letters of other scripts are kept (the header's `filename*`
 * carries them, RFC 5987).
 */
export function downloadFileName(facts: DownloadNameFacts): string {
  const parts = [kebab(facts.payloadType), slug(facts.personName ?? ''), utcStamp(facts.recordedAt), slug(facts.payloadReference).toUpperCase()];
  const extension = slug(facts.extension) || 'bin';
  return `${parts.filter((part) => part !== '').join('-')}.${extension}`;
}

/** `AbortedCall` → `aborted-call`, `SMS` → `sms`. */
function kebab(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** Lower-case letters and digits joined by single hyphens, accents folded, at most MAX_NAME_CHARS characters. */
export function slug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  return [...words.join('-')].slice(0, MAX_NAME_CHARS).join('').replace(/-+$/, '');
}

/** `2026-11-27T07:59:30Z` → `20261127-0759` (UTC), or '' when the time does not read. */
function utcStamp(iso: string | undefined): string {
  const time = iso === undefined ? Number.NaN : Date.parse(iso);
  if (!Number.isFinite(time)) return '';
  const at = new Date(time).toISOString();
  return `${at.slice(0, 4)}${at.slice(5, 7)}${at.slice(8, 10)}-${at.slice(11, 13)}${at.slice(14, 16)}`;
}
