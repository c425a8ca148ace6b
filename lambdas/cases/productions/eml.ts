import { randomBytes } from 'node:crypto';

/** A message as a production shows it: who wrote to whom, when, and its one stored part (text or media). */
export interface MessageForEml {
  controlNumber: string;
  payloadReference: string;
  payloadType: 'SMS' | 'RCS' | 'MMS';
  from: Party;
  to: Party;
  sentAt: Date;
  threadId?: string | undefined;
  /** The bytes the device sealed (verified against its SHA-256 before they get here). */
  content: Buffer;
  /** The content's file extension as its first bytes announce it (`jpg`, `png`, `txt`, `bin`). */
  extension: string;
}

export interface Party {
  number: string;
  name?: string | undefined;
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  amr: 'audio/amr',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  txt: 'text/plain; charset=utf-8',
};

/**
 * A message as an RFC 5322 / MIME email (`.eml`): From, To, Date and Subject headers; an SMS or RCS body as its text
 * part; an MMS as multipart/mixed with a short text part and the stored part as an attachment. Every part is base64,
 * so the decoded bytes are exactly the device's (a receiver hashes them against the manifest's device SHA-256), and
 * header values are single-line (a newline in a name cannot add a header) with non-ASCII text RFC 2047-encoded.
 */
export function messageEml(message: MessageForEml, boundarySeed: () => string = () => randomBytes(12).toString('hex')): Buffer {
  const direction = `${message.payloadType} from ${partyText(message.from)} to ${partyText(message.to)}`;
  const headers = [
    `From: ${mailbox(message.from)}`,
    `To: ${mailbox(message.to)}`,
    `Date: ${rfc5322Date(message.sentAt)}`,
    `Subject: ${headerText(`${message.controlNumber} ${direction}`)}`,
    `Message-ID: <${message.payloadReference}@verity.invalid>`,
    `X-Verity-Control-Number: ${message.controlNumber}`,
    `X-Verity-Payload-Reference: ${message.payloadReference}`,
    ...(message.threadId === undefined ? [] : [`X-Verity-Thread: ${headerText(message.threadId)}`]),
    'MIME-Version: 1.0',
  ];
  if (message.payloadType !== 'MMS') {
    return Buffer.from([...headers, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(message.content), ''].join('\r\n'));
  }
  const boundary = `verity-${boundarySeed()}`;
  const attachmentName = `${message.controlNumber}-part1.${message.extension}`;
  const mediaType = MEDIA_TYPES[message.extension] ?? 'application/octet-stream';
  return Buffer.from(
    [
      ...headers,
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(Buffer.from(`${direction}, with 1 part: ${attachmentName}\r\n`, 'utf8')),
      `--${boundary}`,
      `Content-Type: ${mediaType}`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${attachmentName}"`,
      '',
      base64Lines(message.content),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

const partyText = (party: Party) => (party.name === undefined ? party.number : `${party.name} (${party.number})`);

/** A phone as a mailbox: its number's digits as the local part of a reserved domain, its name as the display name. */
function mailbox(party: Party): string {
  const local = party.number.replace(/[^0-9+]/g, '') || 'unknown';
  const address = `<${local}@phone.invalid>`;
  return party.name === undefined || party.name === '' ? address : `${headerText(party.name)} ${address}`;
}

/** One header line's text: line breaks and control characters removed; non-ASCII as an RFC 2047 encoded word. */
function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  const single = value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  if (/^[\u0020-\u007e]*$/.test(single)) return single;
  return `=?UTF-8?B?${Buffer.from(single, 'utf8').toString('base64')}?=`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (value: number) => String(value).padStart(2, '0');

/** RFC 5322 date-time in UTC: `Fri, 20 Nov 2026 10:00:00 +0000`. */
export function rfc5322Date(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** Base64 in lines of 76 characters (RFC 2045), CRLF between them. */
function base64Lines(bytes: Buffer): string {
  const encoded = bytes.toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return lines.join('\r\n');
}
