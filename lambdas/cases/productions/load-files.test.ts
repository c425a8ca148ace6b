import { describe, expect, it } from 'vitest';
import { messageEml } from './eml.ts';
import { concordanceDat, DAT_NEWLINE, DAT_QUOTE, DAT_SEPARATOR, edrmXml, type ProducedDocument } from './load-files.ts';

const document: ProducedDocument = {
  docId: 'ABC00000001',
  payloadReference: '01M8K836WT6A0AAGFM52CS3R4A',
  payloadType: 'SMS',
  from: 'Zoë "Z" <+447700900111>',
  to: '+447700900124',
  date: '2026-04-20T10:02:00.000Z',
  direction: 'Inbound',
  custodian: 'Alice & Bob\nArcher þ',
  thread: 't-1',
  nativePath: 'NATIVES/ABC00000001.eml',
  nativeSize: 120,
  nativeSha256: 'a'.repeat(64),
  deviceSha256: 'b'.repeat(64),
  mimeType: 'message/rfc822',
};

describe('the load files', () => {
  it('write the DAT with a BOM, þ quotes (doubled inside), 0x14 separators and ® for a line break', () => {
    const dat = concordanceDat([document]);
    expect(dat.startsWith('\ufeff')).toBe(true);
    const [header, row] = dat.slice(1).split('\r\n');
    expect(header?.split(DAT_SEPARATOR)[0]).toBe(`${DAT_QUOTE}DocID${DAT_QUOTE}`);
    expect(header?.split(DAT_SEPARATOR).at(-1)).toBe(`${DAT_QUOTE}NativePath${DAT_QUOTE}`);
    expect(row).toContain(`${DAT_QUOTE}Alice & Bob${DAT_NEWLINE}Archer ${DAT_QUOTE}${DAT_QUOTE}${DAT_QUOTE}`);
    expect(row).not.toContain('\n');
  });

  it('escape markup in the EDRM XML and give the native its folder, name, size and hash', () => {
    const xml = edrmXml('01M8', [document]);
    expect(xml).toContain('<Root MajorVersion="1" MinorVersion="2"');
    expect(xml).toContain('<ExternalFile FilePath="NATIVES" FileName="ABC00000001.eml" FileSize="120" Hash="' + 'a'.repeat(64) + '"/>');
    expect(xml).toContain('TagName="From" TagDataType="Text" TagValue="Zoë &quot;Z&quot; &lt;+447700900111&gt;"');
    expect(xml).toContain('TagValue="Alice &amp; Bob&#10;Archer þ"');
    expect(xml).toContain('TagName="Date" TagDataType="DateTime"');
  });
});

describe('a message as EML', () => {
  const message = {
    controlNumber: 'ABC00000002',
    payloadReference: '01M8K836WT6A0AAGFM52CS3R4A',
    payloadType: 'SMS' as const,
    from: { number: '+447700900124' },
    to: { number: '+447700900111', name: 'Eve\r\nBcc: attacker@example.com' },
    sentAt: new Date('2026-04-20T10:02:00Z'),
    content: Buffer.from('hello'),
    extension: 'txt',
  };

  it('keeps a newline in a name from adding a header, and encodes non-ASCII names', () => {
    const eml = messageEml(message).toString('latin1');
    const headers = eml.split('\r\n\r\n')[0]?.split('\r\n') ?? [];
    expect(headers.filter((line) => line.startsWith('Bcc:'))).toEqual([]);
    expect(headers).toContain('To: Eve Bcc: attacker@example.com <+447700900111@phone.invalid>');
    expect(headers).toContain('Date: Mon, 20 Apr 2026 10:02:00 +0000');
    const named = messageEml({ ...message, to: { number: '+447700900111', name: 'Zoë' } }).toString('latin1');
    expect(named).toContain(`To: =?UTF-8?B?${Buffer.from('Zoë').toString('base64')}?= <+447700900111@phone.invalid>`);
  });

  it('carries an MMS part as a base64 attachment whose bytes are the stored ones', () => {
    const part = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const eml = messageEml({ ...message, payloadType: 'MMS', content: part, extension: 'jpg' }, () => 'fixed').toString('latin1');
    expect(eml).toContain('Content-Type: multipart/mixed; boundary="verity-fixed"');
    expect(eml).toContain('Content-Disposition: attachment; filename="ABC00000002-part1.jpg"');
    const body = eml.split('Content-Disposition: attachment; filename="ABC00000002-part1.jpg"\r\n\r\n')[1]?.split('\r\n--verity-fixed--')[0];
    expect(Buffer.from(body ?? '', 'base64')).toEqual(part);
  });
});
