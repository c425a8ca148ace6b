import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { apngClip, crc32, EICAR, pngGradient, smsThread, wavTone } from './demo-media.ts';

describe('demo media', () => {
  it('writes a valid PCM WAV whose sizes match its samples', () => {
    const wav = wavTone(2, 440, 8000);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(8, 16).toString('ascii')).toBe('WAVEfmt ');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(40)).toBe(2 * 8000 * 2);
    // A tone, not silence.
    expect(Math.max(...Array.from({ length: 100 }, (_, i) => Math.abs(wav.readInt16LE(44 + i * 2))))).toBeGreaterThan(5000);
  });

  it('writes a PNG with correct chunk CRCs and decodable image data', () => {
    const png = pngGradient(16, 8, 3);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let offset = 8;
    const types: string[] = [];
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const typed = png.subarray(offset + 4, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
      types.push(typed.subarray(0, 4).toString('ascii'));
      if (types.at(-1) === 'IDAT') expect(inflateSync(typed.subarray(4)).length).toBe(8 * (1 + 16 * 3));
      offset += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(png.readUInt32BE(16)).toBe(16);
  });

  it('writes an APNG clip: acTL frame count, numbered fcTL/fdAT in sequence, every frame decodable', () => {
    const clip = apngClip(8, 4, 3, 2);
    let offset = 8;
    const chunks: Array<{ type: string; body: Buffer }> = [];
    while (offset < clip.length) {
      const length = clip.readUInt32BE(offset);
      const typed = clip.subarray(offset + 4, offset + 8 + length);
      expect(clip.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
      chunks.push({ type: typed.subarray(0, 4).toString('ascii'), body: typed.subarray(4) });
      offset += 12 + length;
    }
    expect(chunks.map((entry) => entry.type)).toEqual(['IHDR', 'acTL', 'fcTL', 'IDAT', 'fcTL', 'fdAT', 'fcTL', 'fdAT', 'IEND']);
    expect(chunks[1]?.body.readUInt32BE(0)).toBe(3);
    const sequence = chunks.filter((entry) => entry.type === 'fcTL' || entry.type === 'fdAT').map((entry) => entry.body.readUInt32BE(0));
    expect(sequence).toEqual([0, 1, 2, 3, 4]);
    for (const entry of chunks.filter((item) => item.type === 'IDAT' || item.type === 'fdAT')) {
      expect(inflateSync(entry.type === 'IDAT' ? entry.body : entry.body.subarray(4)).length).toBe(4 * (1 + 8 * 3));
    }
  });

  it('knows the standard CRC-32 check value and the EICAR string', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(EICAR.length).toBe(68);
    expect(EICAR.toString('ascii')).toMatch(/^X5O!P%@AP\[4\\PZX54\(P\^\)7CC\)7\}\$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!\$H\+H\*$/);
    expect(smsThread().map((message) => message.offset)).toEqual([0, 120, 300]);
  });
});
