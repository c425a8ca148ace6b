/**
 * The production's load files: EDRM XML 1.2 and a Concordance DAT, the two formats review platforms load. Both list
 * every document once, by control number (DocID), with the same fields; docs/productions.md names them.
 */

/** One produced document: its control number, its native file and what a reviewer filters on. */
export interface ProducedDocument {
  docId: string;
  payloadReference: string;
  payloadType: string;
  from: string;
  to: string;
  /** ISO 8601 UTC. */
  date: string;
  /** Seconds, for calls and other timed recordings. */
  duration?: number | undefined;
  /** `Inbound`, `Outbound` or empty when the recording does not say. */
  direction: string;
  custodian: string;
  thread?: string | undefined;
  /** The native's path inside the production (forward slashes), its folder and name. */
  nativePath: string;
  nativeSize: number;
  nativeSha256: string;
  /** SHA-256 of the bytes the device sealed (for a message, the content inside the `.eml`). */
  deviceSha256: string;
  mimeType: string;
}

/** The load files' fields, in order: each a DAT column and an EDRM `Tag` (the native is the EDRM `File` instead). */
export const LOAD_FILE_FIELDS = [
  ['DocID', (document) => document.docId],
  ['PayloadReference', (document) => document.payloadReference],
  ['PayloadType', (document) => document.payloadType],
  ['From', (document) => document.from],
  ['To', (document) => document.to],
  ['Date', (document) => document.date],
  ['Duration', (document) => (document.duration === undefined ? '' : String(document.duration))],
  ['Direction', (document) => document.direction],
  ['Custodian', (document) => document.custodian],
  ['Thread', (document) => document.thread ?? ''],
  ['DeviceSHA256', (document) => document.deviceSha256],
  ['NativeSHA256', (document) => document.nativeSha256],
] as const satisfies ReadonlyArray<readonly [string, (document: ProducedDocument) => string]>;

/** The DAT's last column: the native's path inside the production. */
export const DAT_NATIVE_COLUMN = 'NativePath';

/** EDRM tag data types of the fields (everything else is Text). */
const TAG_TYPES: Readonly<Record<string, string>> = { Date: 'DateTime', Duration: 'Integer' };

/**
 * EDRM XML 1.2: `Root` (MajorVersion 1, MinorVersion 2) holding one `Batch` whose `Documents` hold one `Document` per
 * produced record, `DocID` its control number; its native as `Files/File[@FileType="Native"]/ExternalFile` (FilePath,
 * FileName, FileSize, Hash: the native's SHA-256) and its fields as `Tags/Tag` (TagName, TagDataType, TagValue).
 */
export function edrmXml(batchName: string, documents: readonly ProducedDocument[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Root MajorVersion="1" MinorVersion="2" Description="${xmlAttribute(`Verity production ${batchName}`)}" DataInterchangeType="Update">`,
    `  <Batch name="${xmlAttribute(batchName)}">`,
    '    <Documents>',
  ];
  for (const document of documents) {
    const cut = document.nativePath.lastIndexOf('/');
    const folder = cut < 0 ? '' : document.nativePath.slice(0, cut);
    const name = document.nativePath.slice(cut + 1);
    lines.push(
      `      <Document DocID="${xmlAttribute(document.docId)}" DocType="File" MimeType="${xmlAttribute(document.mimeType)}">`,
      '        <Files>',
      '          <File FileType="Native">',
      `            <ExternalFile FilePath="${xmlAttribute(folder)}" FileName="${xmlAttribute(name)}" FileSize="${document.nativeSize}" Hash="${document.nativeSha256}"/>`,
      '          </File>',
      '        </Files>',
      '        <Tags>',
    );
    for (const [tagName, value] of LOAD_FILE_FIELDS) {
      if (tagName === 'DocID') continue;
      lines.push(`          <Tag TagName="${tagName}" TagDataType="${TAG_TYPES[tagName] ?? 'Text'}" TagValue="${xmlAttribute(value(document))}"/>`);
    }
    lines.push('        </Tags>', '      </Document>');
  }
  lines.push('    </Documents>', '  </Batch>', '</Root>', '');
  return lines.join('\n');
}

/** An XML attribute value: markup characters escaped, characters XML 1.0 cannot hold removed. */
function xmlAttribute(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll('\n', '&#10;')
      .replaceAll('\r', '&#13;')
      .replaceAll('\t', '&#9;')
  );
}

/** Concordance delimiters: field separator DC4 (0x14), quote þ (U+00FE), a newline inside a field written as ®. */
export const DAT_SEPARATOR = '\u0014';
export const DAT_QUOTE = '\u00fe';
export const DAT_NEWLINE = '\u00ae';

/**
 * The Concordance DAT: UTF-8 with a byte-order mark, a header row, then one row per document; every field quoted in
 * þ (a þ inside a field doubled, as CSV doubles its quote), separated by 0x14, a line break inside a field written as
 * ®, rows ended by CRLF. The columns are the load-file fields and the native's path.
 */
export function concordanceDat(documents: readonly ProducedDocument[]): string {
  const header = [...LOAD_FILE_FIELDS.map(([name]) => name), DAT_NATIVE_COLUMN];
  const rows = [header, ...documents.map((document) => [...LOAD_FILE_FIELDS.map(([, value]) => value(document)), document.nativePath])];
  return `\ufeff${rows.map((row) => `${row.map(datField).join(DAT_SEPARATOR)}\r\n`).join('')}`;
}

function datField(value: string): string {
  const flat = value.replace(/\r\n|\r|\n/g, DAT_NEWLINE).replaceAll(DAT_QUOTE, DAT_QUOTE + DAT_QUOTE);
  return `${DAT_QUOTE}${flat}${DAT_QUOTE}`;
}
