import { describe, expect, it } from 'vitest';
import { MAX_PEAKS, readWavHeader, waveformObjectKey, WaveformPeaksSink } from './waveform-peaks.ts';

/** A PCM WAV: `samples(frame, channel)` in -1..1; a LIST chunk before fmt when `padded`, data size 0 when `streamed`. */
function wav(options: { rate: number; frames: number; bits: 8 | 16; channels?: number; padded?: boolean; streamed?: boolean }, sample: (frame: number, channel: number) => number): Buffer {
  const channels = options.channels ?? 1;
  const bytes = options.bits / 8;
  const data = Buffer.alloc(options.frames * channels * bytes);
  for (let frame = 0; frame < options.frames; frame += 1) {
    for (let channel = 0; channel < channels; channel += 1) {
      const at = (frame * channels + channel) * bytes;
      const value = sample(frame, channel);
      if (options.bits === 8) data[at] = Math.round(128 + value * 127);
      else data.writeInt16LE(Math.round(value * 32767), at);
    }
  }
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(options.rate, 12);
  fmt.writeUInt32LE(options.rate * channels * bytes, 16);
  fmt.writeUInt16LE(channels * bytes, 20);
  fmt.writeUInt16LE(options.bits, 22);
  const list = Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.from([5, 0, 0, 0]), Buffer.from('INFOx\0', 'ascii')]);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'ascii');
  dataHeader.writeUInt32LE(options.streamed ? 0 : data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), ...(options.padded ? [list] : []), fmt, dataHeader, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** Feeds `bytes` in chunks of `size` (odd sizes split frames and the header). */
function peaksOf(bytes: Buffer, size: number) {
  const sink = new WaveformPeaksSink();
  sink.expectBytes(bytes.length);
  for (let at = 0; at < bytes.length; at += size) sink.push(bytes.subarray(at, at + size));
  return sink.result();
}

describe('waveform peaks', () => {
  it('reads a 16-bit WAV in any chunking: one peak per hundredth of a second, loud where the signal is loud', () => {
    // One second at 8 kHz: silence for the first half, a full-scale square wave for the second.
    const bytes = wav({ rate: 8000, frames: 8000, bits: 16 }, (frame) => (frame < 4000 ? 0 : frame % 2 === 0 ? 1 : -1));
    for (const size of [7, 1000, bytes.length]) {
      const peaks = peaksOf(bytes, size);
      expect(peaks).toMatchObject({ version: 1, sample_rate: 8000, channels: 1, duration: 1, peaks_per_second: 100 });
      expect(peaks?.peaks).toHaveLength(100);
      expect(peaks?.peaks.slice(0, 50).every((peak) => peak === 0)).toBe(true);
      expect(peaks?.peaks.slice(50).every((peak) => peak >= 254)).toBe(true);
    }
  });

  it('reads 8-bit unsigned samples, stereo frames (the louder channel), chunks before fmt and an unset data length', () => {
    const bytes = wav({ rate: 4000, frames: 4000, bits: 8, channels: 2, padded: true, streamed: true }, (_frame, channel) => (channel === 1 ? 0.5 : 0));
    const peaks = peaksOf(bytes, 333);
    expect(peaks).toMatchObject({ sample_rate: 4000, channels: 2, duration: 1 });
    expect(peaks?.peaks).toHaveLength(100);
    for (const peak of peaks?.peaks ?? []) expect(peak).toBeCloseTo(128, -1);
  });

  it('keeps at most MAX_PEAKS peaks however long the recording', () => {
    const frames = 8000 * 200;
    const peaks = peaksOf(wav({ rate: 8000, frames, bits: 8 }, () => 0.25), 65_536);
    expect(peaks?.peaks.length).toBeLessThanOrEqual(MAX_PEAKS);
    expect(peaks?.peaks.length).toBeGreaterThan(MAX_PEAKS - 10);
    expect(peaks?.duration).toBe(200);
  });

  it('answers nothing for what is not a PCM WAV', () => {
    expect(peaksOf(Buffer.from('\xff\xd8\xff\xe0 a JPEG, not audio', 'latin1'), 4)).toBeUndefined();
    expect(peaksOf(Buffer.alloc(0), 4)).toBeUndefined();
    const compressed = wav({ rate: 8000, frames: 10, bits: 16 }, () => 0);
    compressed.writeUInt16LE(0x55, 20); // MPEG layer 3 in a WAV wrapper
    expect(peaksOf(compressed, 5)).toBeUndefined();
    expect(readWavHeader(Buffer.from('RIFF'))).toBe('need-more');
  });

  it('keeps peaks under the tenant, apart from payload objects', () => {
    expect(waveformObjectKey('demo', '01ABC')).toBe('demo/waveforms/01ABC.json');
  });
});
