import type { WaveformPeaks } from '#shared/contract/entities/waveform-peaks.ts';
import { payloadObjectKey } from '../../core/store/keys.ts';

/**
 * Waveform peaks of an audio recording, computed while processing streams its plaintext once (content-pass.ts), so a
 * portal user sees an hour-long call's waveform without downloading its audio. Kept in the processed bucket beside
 * the recording (`waveformObjectKey`), a few kilobytes however long the call.
 *
 * Only PCM WAV is read here (8, 16, 24 or 32-bit integer and 32-bit float, any channel count): its samples need no
 * decoder. A compressed recording (AMR, AAC, Opus) gets no peaks: its player plays it without a waveform rather than
 * download it whole to decode one (docs/decisions.md, "Waveforms").
 */

/** At most this many peaks, however long the recording (8,000 peaks: about 30 KB of JSON). */
export const MAX_PEAKS = 8_000;
/** At most this many peaks a second: finer than a short call's waveform can be drawn. */
export const MAX_PEAKS_PER_SECOND = 100;
/** A WAV whose data chunk does not start within this many bytes is not read. */
const MAX_HEADER_BYTES = 64 * 1024;

/** Processed-bucket key of a payload's peaks: under the tenant, apart from the payload objects. */
export function waveformObjectKey(client: string, payloadReference: string): string {
  return `${payloadObjectKey(client, payloadReference).replace(/\/payloads\//, '/waveforms/')}.json`;
}

interface PcmFormat {
  format: 'int' | 'float';
  bits: 8 | 16 | 24 | 32;
  channels: number;
  sampleRate: number;
  /** Bytes of sample data the data chunk declares (undefined: unknown, read to the end). */
  dataBytes: number | undefined;
}

/** Reads the RIFF/WAVE header up to the data chunk: the format and where the samples start, or why not. */
export function readWavHeader(head: Buffer): { pcm: PcmFormat; dataOffset: number } | 'need-more' | 'not-pcm-wav' {
  if (head.length < 12) return 'need-more';
  if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return 'not-pcm-wav';
  let offset = 12;
  let fmt: Omit<PcmFormat, 'dataBytes'> | undefined;
  while (offset + 8 <= head.length) {
    const id = head.toString('ascii', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'data') {
      if (fmt === undefined) return 'not-pcm-wav';
      // 0 and 0xFFFFFFFF are what streaming writers leave when they cannot seek back: read to the end.
      const dataBytes = size === 0 || size === 0xffffffff ? undefined : size;
      return { pcm: { ...fmt, dataBytes }, dataOffset: body };
    }
    if (body + size > head.length) return head.length > MAX_HEADER_BYTES ? 'not-pcm-wav' : 'need-more';
    if (id === 'fmt ') {
      if (size < 16) return 'not-pcm-wav';
      let tag = head.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID's first two bytes are the real tag.
      if (tag === 0xfffe && size >= 40) tag = head.readUInt16LE(body + 24);
      const channels = head.readUInt16LE(body + 2);
      const sampleRate = head.readUInt32LE(body + 4);
      const bits = head.readUInt16LE(body + 14);
      const format = tag === 1 ? 'int' : tag === 3 ? 'float' : undefined;
      if (format === undefined || channels < 1 || sampleRate < 1) return 'not-pcm-wav';
      if (format === 'int' && bits !== 8 && bits !== 16 && bits !== 24 && bits !== 32) return 'not-pcm-wav';
      if (format === 'float' && bits !== 32) return 'not-pcm-wav';
      fmt = { format, bits: bits as PcmFormat['bits'], channels, sampleRate };
    }
    // Chunks are padded to an even length.
    offset = body + size + (size % 2);
  }
  return head.length > MAX_HEADER_BYTES ? 'not-pcm-wav' : 'need-more';
}

/** One sample's magnitude, 0 to 1. */
function magnitudeReader(pcm: PcmFormat): (bytes: Buffer, at: number) => number {
  if (pcm.format === 'float') return (bytes, at) => Math.min(1, Math.abs(bytes.readFloatLE(at)));
  switch (pcm.bits) {
    case 8:
      // 8-bit WAV is unsigned, centred on 128.
      return (bytes, at) => Math.abs((bytes[at] as number) - 128) / 128;
    case 16:
      return (bytes, at) => Math.abs(bytes.readInt16LE(at)) / 32768;
    case 24:
      return (bytes, at) => Math.abs(bytes.readIntLE(at, 3)) / 8388608;
    default:
      return (bytes, at) => Math.abs(bytes.readInt32LE(at)) / 2147483648;
  }
}

/**
 * Collects peaks from plaintext chunks as they stream by (`push`), in constant memory: the header bytes until the data
 * chunk, then one running maximum per bucket. `result()` answers the peaks, or undefined when the bytes were not a
 * PCM WAV.
 */
export class WaveformPeaksSink {
  private head: Buffer | undefined = Buffer.alloc(0);
  private rejected = false;
  private pcm: PcmFormat | undefined;
  private read: ((bytes: Buffer, at: number) => number) | undefined;
  private frameBytes = 0;
  private framesPerPeak = 1;
  private remaining = Number.POSITIVE_INFINITY;
  /** Bytes of a frame split across two chunks. */
  private carry = Buffer.alloc(0);
  private frames = 0;
  private framesInBucket = 0;
  private bucketMax = 0;
  private readonly peaks: number[] = [];

  private totalBytes = 0;

  /** The plaintext's length: sizes the buckets when the WAV header leaves the data length unset. */
  expectBytes(totalBytes: number): void {
    this.totalBytes = totalBytes;
  }

  push(chunk: Buffer): void {
    if (this.rejected) return;
    if (this.head !== undefined) {
      this.head = Buffer.concat([this.head, chunk]);
      const header = readWavHeader(this.head);
      if (header === 'need-more') return;
      if (header === 'not-pcm-wav') {
        this.rejected = true;
        this.head = undefined;
        return;
      }
      this.start(header.pcm, header.dataOffset);
      const rest = this.head.subarray(header.dataOffset);
      this.head = undefined;
      this.samples(rest);
      return;
    }
    this.samples(chunk);
  }

  private start(pcm: PcmFormat, dataOffset: number): void {
    this.pcm = pcm;
    this.read = magnitudeReader(pcm);
    this.frameBytes = (pcm.bits / 8) * pcm.channels;
    const dataBytes = pcm.dataBytes ?? Math.max(0, this.totalBytes - dataOffset);
    this.remaining = dataBytes;
    const frames = Math.floor(dataBytes / this.frameBytes);
    this.framesPerPeak = Math.max(1, Math.ceil(frames / MAX_PEAKS), Math.ceil(pcm.sampleRate / MAX_PEAKS_PER_SECOND));
  }

  private samples(chunk: Buffer): void {
    if (this.remaining <= 0 || this.read === undefined) return;
    let bytes = chunk.length > this.remaining ? chunk.subarray(0, this.remaining) : chunk;
    this.remaining -= bytes.length;
    if (this.carry.length > 0) {
      bytes = Buffer.concat([this.carry, bytes]);
      this.carry = Buffer.alloc(0);
    }
    const whole = bytes.length - (bytes.length % this.frameBytes);
    const sampleBytes = this.frameBytes / (this.pcm as PcmFormat).channels;
    for (let at = 0; at < whole; at += sampleBytes) {
      const value = this.read(bytes, at);
      if (value > this.bucketMax) this.bucketMax = value;
      // A frame ends with its last channel's sample.
      if ((at + sampleBytes) % this.frameBytes === 0) this.endFrame();
    }
    if (whole < bytes.length) this.carry = Buffer.from(bytes.subarray(whole));
  }

  private endFrame(): void {
    this.frames += 1;
    this.framesInBucket += 1;
    if (this.framesInBucket === this.framesPerPeak) this.closeBucket();
  }

  private closeBucket(): void {
    this.peaks.push(Math.round(this.bucketMax * 255));
    this.bucketMax = 0;
    this.framesInBucket = 0;
  }

  /** The peaks once every byte went by, or undefined for anything but a PCM WAV with samples. */
  result(): WaveformPeaks | undefined {
    if (this.rejected || this.pcm === undefined) return undefined;
    if (this.framesInBucket > 0) this.closeBucket();
    if (this.frames === 0) return undefined;
    const { sampleRate, channels } = this.pcm;
    return {
      version: 1,
      sample_rate: sampleRate,
      channels,
      duration: this.frames / sampleRate,
      peaks_per_second: sampleRate / this.framesPerPeak,
      peaks: this.peaks,
    };
  }
}
