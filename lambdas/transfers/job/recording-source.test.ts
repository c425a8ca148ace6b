import { describe, expect, it } from 'vitest';
import { extensionOf } from './recording-source.ts';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('extensionOf (the delivered name of a recording, from its first bytes)', () => {
  it('names the formats phones record', () => {
    expect(extensionOf(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'Call')).toBe('wav');
    expect(extensionOf(bytes('#!AMR\n', [0x3c]), 'Call')).toBe('amr');
    expect(extensionOf(bytes([0, 0, 0, 0x20], 'ftypM4A '), 'Interview')).toBe('m4a');
    expect(extensionOf(bytes([0, 0, 0, 0x20], 'ftypisom'), 'Video')).toBe('mp4');
    expect(extensionOf(bytes([0xff, 0xd8, 0xff, 0xe1]), 'Photo')).toBe('jpg');
    expect(extensionOf(bytes([0x89], 'PNG\r\n'), 'MMS')).toBe('png');
    expect(extensionOf(bytes('OggS', [0]), 'Call')).toBe('ogg');
    expect(extensionOf(bytes('ID3', [4, 0]), 'Call')).toBe('mp3');
  });

  it('calls a message without a known signature text, and anything else bin', () => {
    expect(extensionOf(Buffer.from('See you at ten'), 'SMS')).toBe('txt');
    expect(extensionOf(Buffer.from('hello'), 'RCS')).toBe('txt');
    expect(extensionOf(Buffer.from('hello'), 'Call')).toBe('bin');
    expect(extensionOf(Buffer.alloc(0), 'Photo')).toBe('bin');
  });
});
