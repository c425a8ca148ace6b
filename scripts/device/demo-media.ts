import { deflateSync } from 'node:zlib';

/**
 * Small real media the simulator records (generated here, never downloaded): a WAV tone for calls and interviews,
 * a PNG for photos, an animated PNG for the short video, an SMS thread, and the EICAR test string (a harmless file every scanner flags).
 */

/** A mono 16-bit PCM WAV of a sine tone: the RIFF header written by hand, so any player plays it. */
export function wavTone(seconds: number, frequency = 440, sampleRate = 8000): Buffer {
  const samples = Math.max(0, Math.round(seconds * sampleRate));
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * index) / sampleRate) * 0.3 * 32767), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** Filtered RGB rows (filter none) of a diagonal gradient tinted by `seed`: the image data of one PNG frame. */
function gradientRows(width: number, height: number, seed: number): Buffer {
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    const row = y * (1 + width * 3);
    rows[row] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const pixel = row + 1 + x * 3;
      rows[pixel] = (x * 255) / Math.max(1, width - 1);
      rows[pixel + 1] = (y * 255) / Math.max(1, height - 1);
      rows[pixel + 2] = (seed * 53) % 256;
    }
  }
  return rows;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive filter, no interlace
  return chunk('IHDR', header);
}

/** An RGB PNG (8-bit, no interlace) of a diagonal gradient tinted by `seed`, so each demo photo differs. */
export function pngGradient(width: number, height: number, seed = 0): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height), chunk('IDAT', deflateSync(gradientRows(width, height, seed))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The demo "video": an animated PNG (APNG), `frames` gradients shown `fps` a second, looping. A real moving picture
 * every browser plays with no codec, small enough to seal in memory; the payload is typed Video and its meta carries
 * the duration. (A real phone uploads MP4: the pipeline never looks inside the bytes, only the scanner does.)
 */
export function apngClip(width: number, height: number, frames: number, fps = 2): Buffer {
  const control = Buffer.alloc(8);
  control.writeUInt32BE(frames, 0);
  control.writeUInt32BE(0, 4); // loop forever
  const parts = [PNG_SIGNATURE, ihdr(width, height), chunk('acTL', control)];
  let sequence = 0;
  for (let frame = 0; frame < frames; frame += 1) {
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(sequence++, 0);
    fctl.writeUInt32BE(width, 4);
    fctl.writeUInt32BE(height, 8);
    // x and y offsets 0; delay 1/fps s; dispose none; blend source.
    fctl.writeUInt16BE(1, 20);
    fctl.writeUInt16BE(fps, 22);
    parts.push(chunk('fcTL', fctl));
    const data = deflateSync(gradientRows(width, height, frame * 37));
    if (frame === 0) parts.push(chunk('IDAT', data));
    else {
      const numbered = Buffer.alloc(4 + data.length);
      numbered.writeUInt32BE(sequence++, 0);
      data.copy(numbered, 4);
      parts.push(chunk('fdAT', numbered));
    }
  }
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
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
