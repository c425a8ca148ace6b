import { createHash } from 'node:crypto';
import { SEALED_PLAINTEXT_MAX_BYTES } from '#shared/contract/bounds.ts';
import { META_BY_TYPE } from '#shared/contract/entities/payloads.ts';
import { formatIssues, oneOf } from '#shared/contract/messages.ts';
import { utcOf } from '../../device-data/public.ts';
import { readLines, type Line } from './lines.ts';
import {
  base64LengthOf,
  DeviceRow,
  DeviceUserRow,
  EXPORT_FORMAT,
  EXPORT_ROW_KINDS,
  ExportHeader,
  GroupRow,
  MAX_MEDIA_BYTES,
  maxLineBytesFor,
  RecordingRowInput,
  type ExportRow,
  type ExportRowKind,
  type RecordingRow,
} from './rows.ts';

/**
 * One row of the file, read: its value, or why it cannot be imported. `type` is the result type a failure reports:
 * `UnknownFile` when the file is not an export at all (row 1 only, and nothing after it is read), else `Error`.
 * `kind` and `reference` are given when the line said them, so the result can name what it was about.
 */
export type ParsedRow =
  | { row: number; ok: true; value: ExportRow }
  | { row: number; ok: false; problems: string[]; type: 'Error' | 'UnknownFile'; kind?: ExportRowKind; reference?: string };

export interface ReadOptions {
  /** The largest decoded media a row may carry (default MAX_MEDIA_BYTES). */
  maxMediaBytes?: number;
  /**
   * Rows up to this one (already imported: a resumed import's checkpoint) are passed over without being parsed; the
   * header is still read and checked. Default 0: every row.
   */
  skipThrough?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIB = 1024 * 1024;
/** A device's sealed meta holds at most this much plaintext (docs/decisions.md, "Bounded input"): the same here. */
const MAX_META_BYTES = SEALED_PLAINTEXT_MAX_BYTES;

/**
 * Reads a legacy export (docs/migration-format.md) as a stream: one ParsedRow per non-blank line after the header,
 * numbered by line. Memory is bounded by the longest allowed line (the media cap), never by the file. Never throws on
 * content: bad bytes, JSON or fields are a failed row, and the next line is read as usual.
 */
export async function* readExportRows(source: AsyncIterable<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<ParsedRow> {
  const maxMediaBytes = options.maxMediaBytes ?? MAX_MEDIA_BYTES;
  const skipThrough = options.skipThrough ?? 0;
  let headerSeen = false;
  for await (const line of readLines(source, maxLineBytesFor(maxMediaBytes))) {
    if (!headerSeen) {
      const problems = headerProblems(line);
      if (problems.length > 0) {
        yield { row: line.number, ok: false, type: 'UnknownFile', problems };
        return;
      }
      headerSeen = true;
      continue;
    }
    if (line.number <= skipThrough) continue;
    if (!('tooLong' in line) && isBlank(line.bytes)) continue;
    yield parseLine(line, maxMediaBytes);
  }
  if (!headerSeen) yield { row: 1, ok: false, type: 'UnknownFile', problems: ['The file is empty: it is not a legacy export'] };
}

/** A size as people read it: whole MiB, else KiB, else bytes. */
function sizeText(bytes: number): string {
  if (bytes >= MIB) return `${Math.floor(bytes / MIB)} MiB`;
  if (bytes >= 1024) return `${Math.floor(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09) return false;
  return true;
}

function headerProblems(line: Line): string[] {
  const notExport = `Not a legacy export: its first line must be {"kind":"${EXPORT_FORMAT}","version":1}`;
  if ('tooLong' in line) return [notExport];
  const json = jsonOf(line.bytes);
  if (!json.ok) return [notExport, json.problem];
  const header = ExportHeader.safeParse(json.value);
  return header.success ? [] : [notExport, ...formatIssues(header.error)];
}

type Json = { ok: true; value: unknown } | { ok: false; problem: string };

function jsonOf(bytes: Buffer): Json {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: 'Not UTF-8 text' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `Not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})` };
  }
}

function parseLine(line: Line, maxMediaBytes: number): ParsedRow {
  const row = line.number;
  const fail = (problems: string[], kind?: ExportRowKind, reference?: string): ParsedRow => ({
    row,
    ok: false,
    type: 'Error',
    problems,
    ...(kind === undefined ? {} : { kind }),
    ...(reference === undefined ? {} : { reference }),
  });
  if ('tooLong' in line) {
    return fail([`The row is ${line.length} bytes, longer than the ${sizeText(maxLineBytesFor(maxMediaBytes))} a row may take (media at most ${sizeText(maxMediaBytes)})`]);
  }
  const json = jsonOf(line.bytes);
  if (!json.ok) return fail([json.problem]);
  const value = json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(['Must be a JSON object']);
  const record = value as Record<string, unknown>;
  const kind = EXPORT_ROW_KINDS.find((known) => known === record.kind);
  if (kind === undefined) return fail([`kind: ${oneOf(EXPORT_ROW_KINDS)}`]);
  const reference = referenceOf(kind, record);
  const parsed = parseKind(kind, record, maxMediaBytes);
  return parsed.ok ? { row, ok: true, value: parsed.value } : fail(parsed.problems, kind, reference);
}

/** The row's own reference, when it is a short text: results name it even when the row is refused. */
function referenceOf(kind: ExportRowKind, record: Record<string, unknown>): string | undefined {
  const field = { group: 'group_reference', device_user: 'device_user_reference', device: 'device_reference', recording: 'legacy_payload_reference' }[kind];
  const value = record[field];
  return typeof value === 'string' && value.length > 0 && value.length <= 255 ? value : undefined;
}

type Parsed = { ok: true; value: ExportRow } | { ok: false; problems: string[] };

function parseKind(kind: ExportRowKind, record: Record<string, unknown>, maxMediaBytes: number): Parsed {
  if (kind === 'recording') return parseRecording(record, maxMediaBytes);
  const schema = { group: GroupRow, device_user: DeviceUserRow, device: DeviceRow }[kind];
  const parsed = schema.safeParse(record);
  if (!parsed.success) return { ok: false, problems: formatIssues(parsed.error) };
  return withUtcTimes(parsed.data);
}

const TIME_FIELDS = ['onboard_date', 'offboard_date', 'activated_at', 'deactivation_date', 'uploaded_at', 'legacy_processed_time'] as const;

/** Times as UTC ISO instants (the format's times may have no zone: they are UTC), or a problem per unreadable one. */
function withUtcTimes<T extends object>(row: T): { ok: true; value: T & ExportRow } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const times: Record<string, string> = {};
  for (const field of TIME_FIELDS) {
    const value = (row as Record<string, unknown>)[field];
    if (typeof value !== 'string') continue;
    const utc = utcOf(value);
    if (utc === undefined) problems.push(`${field}: Must be an ISO date like 1999-01-01T16:50:00Z`);
    else times[field] = utc;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { ...row, ...times } as T & ExportRow };
}

function parseRecording(record: Record<string, unknown>, maxMediaBytes: number): Parsed {
  const parsed = RecordingRowInput.safeParse(record);
  if (!parsed.success) return { ok: false, problems: formatIssues(parsed.error) };
  const { media, checksum, ...input } = parsed.data;
  const problems: string[] = [];

  const meta = META_BY_TYPE[input.payload_type].safeParse(input.meta);
  if (!meta.success) problems.push(...formatIssues(meta.error, 'meta'));
  // As a device's sealed meta: bounded, so the recording's item stays under DynamoDB's 400 KB.
  else if (Buffer.byteLength(JSON.stringify(meta.data)) > MAX_META_BYTES) problems.push(`meta: Larger than the ${sizeText(MAX_META_BYTES)} a recording's meta may take`);
  const payloadTime = meta.success ? utcOf(meta.data.payload_time) : undefined;
  if (meta.success && payloadTime === undefined) problems.push('meta.payload_time: Must be an ISO date like 1999-01-01T16:50:00Z');

  if (input.legacy_state === 'Recorded' && media !== undefined) problems.push('media: A Recorded recording was never uploaded: it has no media');
  if (media !== undefined && checksum === undefined) problems.push('checksum: The SHA-256 of the media is required with media');
  if (media === undefined && checksum !== undefined && input.legacy_state === 'Recorded') problems.push('checksum: Only with media');

  let bytes: Buffer | undefined;
  if (media !== undefined) {
    if (media.data.length > base64LengthOf(maxMediaBytes)) {
      problems.push(`media.data: Larger than the ${sizeText(maxMediaBytes)} of media a row may carry`);
    } else if (media.data.length % 4 !== 0 || !BASE64.test(media.data)) {
      problems.push('media.data: Must be base64 text');
    } else {
      bytes = Buffer.from(media.data, 'base64');
      if (bytes.length === 0) problems.push('media.data: Must not be empty');
      const actual = createHash('sha256').update(bytes).digest('hex');
      if (checksum !== undefined && actual !== checksum.toLowerCase()) {
        problems.push(`checksum: Does not match the media (its SHA-256 is ${actual})`);
      }
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  const times = withUtcTimes(input);
  if (!times.ok) return times;
  const value: RecordingRow = {
    ...(times.value as Omit<RecordingRow, 'payload_time' | 'checksum' | 'media'>),
    meta: (meta.success ? meta.data : input.meta) as Record<string, unknown>,
    payload_time: payloadTime ?? '',
    ...(media === undefined || bytes === undefined || checksum === undefined
      ? {}
      : {
          checksum: checksum.toLowerCase(),
          media: { content_type: media.content_type, ...(media.file_name === undefined ? {} : { file_name: media.file_name }), bytes },
        }),
  };
  return { ok: true, value };
}
