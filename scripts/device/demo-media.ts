import { readFileSync } from 'node:fs';

/**
 * The media the simulator records: real recordings made once and committed under `media/` (how, in
 * `media/README.md`), so CI needs no speech synthesiser or encoder: speech for calls and interviews (8 kHz mono 8-bit
 * PCM WAV, what the pipeline computes waveform peaks from), an H.264/AAC MP4 video, a JPEG photo with EXIF; plus an
 * SMS thread and the EICAR test string (a harmless file every scanner flags).
 */
export type DemoMediaName = 'call.wav' | 'interview.wav' | 'photo.jpg' | 'video.mp4';

const loaded = new Map<DemoMediaName, Buffer>();

/** One committed fixture's bytes (read once). */
export function demoMedia(name: DemoMediaName): Buffer {
  let bytes = loaded.get(name);
  if (bytes === undefined) {
    bytes = readFileSync(new URL(`./media/${name}`, import.meta.url));
    loaded.set(name, bytes);
  }
  return bytes;
}

/** Where a PCM WAV's samples are and how they are laid out (the fixtures have a plain fmt + data layout). */
export function wavLayout(wav: Buffer): { byteRate: number; dataOffset: number; dataBytes: number; header: Buffer } {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV');
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(offset + 16);
    if (id === 'data') return { byteRate, dataOffset: offset + 8, dataBytes: Math.min(size, wav.length - offset - 8), header: wav.subarray(0, offset + 8) };
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV without a data chunk');
}

/** A WAV's length in whole seconds (rounded up: the meta duration a phone would write). */
export function wavSeconds(wav: Buffer): number {
  const { byteRate, dataBytes } = wavLayout(wav);
  return Math.ceil(dataBytes / byteRate);
}

/**
 * A WAV of `seconds` made by repeating `wav`'s samples: the bench's hour-long call, made from the committed speech
 * rather than committed itself.
 */
export function loopedWav(wav: Buffer, seconds: number): Buffer {
  const { byteRate, dataOffset, dataBytes, header } = wavLayout(wav);
  const total = seconds * byteRate;
  const out = Buffer.alloc(header.length + total);
  header.copy(out);
  out.writeUInt32LE(out.length - 8, 4);
  out.writeUInt32LE(total, header.length - 4);
  const samples = wav.subarray(dataOffset, dataOffset + dataBytes);
  for (let at = 0; at < total; at += samples.length) samples.copy(out, header.length + at, 0, Math.min(samples.length, total - at));
  return out;
}

/** The EICAR anti-malware test file (harmless; scanners report it as infected). Built from parts so this source is not itself flagged. */
export const EICAR = Buffer.from(['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'].join(''), 'ascii');

export interface DemoMessage {
  direction: 'Incoming' | 'Outgoing';
  text: string;
  /** Seconds after the thread starts. */
  offset: number;
}

/** A short SMS conversation, oldest first. */
export function smsThread(): DemoMessage[] {
  return [
    { direction: 'Incoming', text: 'Can you confirm the order for Friday?', offset: 0 },
    { direction: 'Outgoing', text: 'Confirmed: 200 units, delivery Friday 9am.', offset: 120 },
    { direction: 'Incoming', text: 'Thanks, invoice to follow.', offset: 300 },
  ];
}
