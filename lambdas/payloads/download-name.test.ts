import { describe, expect, it } from 'vitest';
import { downloadFileName, slug } from './download-name.ts';
import { mediaTypeOf } from './media-type.ts';

const REF = '01M8H78J1W54WGTAQMCE5XW2VV';
const base = { payloadType: 'Call', personName: 'Alice Archer', recordedAt: '2026-11-27T07:59:30.000Z', payloadReference: REF, extension: 'wav' } as const;

describe('downloadFileName', () => {
  it('names the kind, the person, the UTC time and the reference, with the extension', () => {
    expect(downloadFileName(base)).toBe(`call-alice-archer-20261127-0759-${REF}.wav`);
    expect(downloadFileName({ ...base, payloadType: 'AbortedCall', recordedAt: '2026-11-27T23:30:00+02:00' })).toBe(`aborted-call-alice-archer-20261127-2130-${REF}.wav`);
    expect(downloadFileName({ ...base, payloadType: 'SMS', extension: 'txt' })).toBe(`sms-alice-archer-20261127-0759-${REF}.txt`);
  });

  it('keeps only letters and digits of a hostile name: no path, quote, control character or dot gets through', () => {
    for (const hostile of ['../../etc/passwd', 'a/b\\c', '"quoted" \'name\'', 'line\r\nbreak\u0000nul', 'name.exe', '  ', '---']) {
      const name = downloadFileName({ ...base, personName: hostile });
      expect(name, hostile).toMatch(/^[a-z0-9-]+\.wav$/i);
      expect(name.split('.')).toHaveLength(2);
    }
    expect(downloadFileName({ ...base, personName: '../../etc/passwd' })).toBe(`call-etc-passwd-20261127-0759-${REF}.wav`);
    expect(downloadFileName({ ...base, personName: '"Bram" O\'Baker' })).toBe(`call-bram-o-baker-20261127-0759-${REF}.wav`);
  });

  it('folds accents and keeps other scripts (the header carries them as UTF-8)', () => {
    expect(downloadFileName({ ...base, personName: 'Zoë Ünal-Ångström' })).toBe(`call-zoe-unal-angstrom-20261127-0759-${REF}.wav`);
    expect(downloadFileName({ ...base, personName: '王 芳' })).toBe(`call-王-芳-20261127-0759-${REF}.wav`);
  });

  it('leaves out what is missing or unreadable, never leaving empty parts', () => {
    expect(downloadFileName({ ...base, personName: undefined })).toBe(`call-20261127-0759-${REF}.wav`);
    expect(downloadFileName({ ...base, personName: '', recordedAt: 'not a time' })).toBe(`call-${REF}.wav`);
    expect(downloadFileName({ ...base, extension: '' })).toBe(`call-alice-archer-20261127-0759-${REF}.bin`);
    expect(downloadFileName({ ...base, extension: '../x' })).toBe(`call-alice-archer-20261127-0759-${REF}.x`);
  });

  it('bounds a long name', () => {
    expect(slug('a'.repeat(100))).toHaveLength(40);
    expect(slug(`${'ab '.repeat(13)}c`)).not.toMatch(/-$/);
  });
});

describe('mediaTypeOf', () => {
  const bytes = (text: string, ...prefix: number[]) => new Uint8Array([...prefix, ...Buffer.from(text, 'latin1')]);
  it('reads the formats phones record from their signature', () => {
    expect(mediaTypeOf(bytes('RIFF\u0024\u0000\u0000\u0000WAVEfmt '), 'Call')).toEqual({ mediaType: 'audio/wav', extension: 'wav' });
    expect(mediaTypeOf(bytes('#!AMR\n'), 'Call').extension).toBe('amr');
    expect(mediaTypeOf(bytes('', 0xff, 0xd8, 0xff, 0xe0), 'Photo').extension).toBe('jpg');
    expect(mediaTypeOf(bytes('', 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), 'MMS').extension).toBe('png');
    expect(mediaTypeOf(bytes('\u0000\u0000\u0000\u0018ftypmp42'), 'Video')).toEqual({ mediaType: 'video/mp4', extension: 'mp4' });
    expect(mediaTypeOf(bytes('\u0000\u0000\u0000\u0018ftypisom'), 'Interview')).toEqual({ mediaType: 'audio/mp4', extension: 'm4a' });
    expect(mediaTypeOf(bytes('\u0000\u0000\u0000\u0018ftypheic'), 'Photo').extension).toBe('heic');
    expect(mediaTypeOf(bytes('', 0xff, 0xf1, 0x50), 'Call').extension).toBe('aac');
    expect(mediaTypeOf(bytes('', 0xff, 0xfb, 0x90), 'Call').extension).toBe('mp3');
    expect(mediaTypeOf(bytes('ID3\u0004'), 'Call').extension).toBe('mp3');
  });

  it('takes an SMS or RCS body as text, and anything unknown (or empty) as bytes', () => {
    expect(mediaTypeOf(bytes('Meet at nine'), 'SMS')).toEqual({ mediaType: 'text/plain', extension: 'txt' });
    expect(mediaTypeOf(bytes('Meet at nine'), 'Video')).toEqual({ mediaType: 'application/octet-stream', extension: 'bin' });
    expect(mediaTypeOf(new Uint8Array(), 'Call').extension).toBe('bin');
  });
});
