import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WaveformPeaksSink } from '../../lambdas/payloads/processing/waveform-peaks.ts';
import { demoMedia, EICAR, loopedWav, smsThread, wavLayout, wavSeconds, type DemoMediaName } from './demo-media.ts';

const FIXTURES: DemoMediaName[] = ['call.wav', 'interview.wav', 'photo.jpg', 'video.mp4'];

describe('demo media', () => {
  it('keeps the committed fixtures small: tens of KB each, well under 1 MB together', () => {
    const sizes = FIXTURES.map((name) => statSync(new URL(`./media/${name}`, import.meta.url)).size);
    for (const size of sizes) expect(size).toBeLessThan(100 * 1024);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(400 * 1024);
  });

  it('records speech as 8 kHz 8-bit PCM WAV: seconds long, not silence, peaks computable', () => {
    for (const name of ['call.wav', 'interview.wav'] as const) {
      const wav = demoMedia(name);
      expect(wav.readUInt16LE(20), name).toBe(1); // PCM
      expect(wav.readUInt32LE(24), name).toBe(8000);
      expect(wav.readUInt16LE(34), name).toBe(8);
      expect(wavSeconds(wav), name).toBeGreaterThanOrEqual(5);
      const sink = new WaveformPeaksSink();
      sink.push(wav);
      const peaks = sink.result();
      // Speech: loud words and quiet gaps.
      expect(Math.max(...(peaks?.peaks ?? [])), name).toBeGreaterThan(100);
      expect(Math.min(...(peaks?.peaks ?? [])), name).toBeLessThan(20);
    }
  });

  it('has a JPEG photo with EXIF and an MP4 video', () => {
    const photo = demoMedia('photo.jpg');
    expect([...photo.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(photo.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(true);
    expect(photo.includes(Buffer.from('Galaxy XCover 7', 'latin1'))).toBe(true);
    const video = demoMedia('video.mp4');
    expect(video.toString('latin1', 4, 8)).toBe('ftyp');
    expect(video.includes(Buffer.from('avc1', 'latin1'))).toBe(true);
  });

  it('loops the speech into a long WAV whose header states its length', () => {
    const call = demoMedia('call.wav');
    const hour = loopedWav(call, 3600);
    const layout = wavLayout(hour);
    expect(layout.dataBytes).toBe(3600 * 8000);
    expect(hour.readUInt32LE(4)).toBe(hour.length - 8);
    expect(wavSeconds(hour)).toBe(3600);
    const first = wavLayout(call);
    expect(hour.subarray(layout.dataOffset, layout.dataOffset + 100).equals(call.subarray(first.dataOffset, first.dataOffset + 100))).toBe(true);
  });

  it('knows the EICAR string and the SMS thread', () => {
    expect(EICAR.length).toBe(68);
    expect(EICAR.toString('ascii')).toMatch(/^X5O!P%@AP\[4\\PZX54\(P\^\)7CC\)7\}\$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!\$H\+H\*$/);
    expect(smsThread().map((message) => message.offset)).toEqual([0, 120, 300]);
  });
});
