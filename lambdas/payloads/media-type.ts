import type { PayloadType } from '#shared/constants/payloads.ts';

/** How many leading bytes `mediaTypeOf` reads: enough for every signature below. */
export const MEDIA_SIGNATURE_BYTES = 16;

export interface MediaType {
  mediaType: string;
  extension: string;
}

const AUDIO_TYPES = new Set<PayloadType>(['Call', 'AbortedCall', 'BlockedCall', 'Interview']);
const TEXT_TYPES = new Set<PayloadType>(['SMS', 'RCS']);

/**
 * What a recording's content is, read from its first bytes. Processing stores every processed object as
 * `application/octet-stream` (the phone sends ciphertext, whose type nothing declares), so the type is read from the
 * plaintext's own signature: the formats Android phones record and send (WAV, AMR, AAC, MP3, Ogg, MP4/3GP, WebM, JPEG,
 * PNG, GIF, WebP, HEIC), an SMS or RCS body as text, anything else as bytes.
 */
export function mediaTypeOf(head: Uint8Array, payloadType: PayloadType): MediaType {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (ascii(0, 4) === 'RIFF') {
    const form = ascii(8, 12);
    if (form === 'WAVE') return { mediaType: 'audio/wav', extension: 'wav' };
    if (form === 'WEBP') return { mediaType: 'image/webp', extension: 'webp' };
    if (form === 'AVI ') return { mediaType: 'video/x-msvideo', extension: 'avi' };
  }
  if (ascii(0, 5) === '#!AMR') return { mediaType: 'audio/amr', extension: 'amr' };
  if (starts(0xff, 0xd8, 0xff)) return { mediaType: 'image/jpeg', extension: 'jpg' };
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mediaType: 'image/png', extension: 'png' };
  if (ascii(0, 4) === 'GIF8') return { mediaType: 'image/gif', extension: 'gif' };
  if (ascii(0, 4) === 'OggS') return { mediaType: 'audio/ogg', extension: 'ogg' };
  if (ascii(0, 4) === 'fLaC') return { mediaType: 'audio/flac', extension: 'flac' };
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) return { mediaType: 'video/webm', extension: 'webm' };
  if (ascii(0, 3) === 'ID3') return { mediaType: 'audio/mpeg', extension: 'mp3' };
  // MPEG audio frame sync (11 bits set): layer bits 00 are AAC's ADTS, anything else MPEG audio (MP3).
  if (head[0] === 0xff && head[1] !== undefined && (head[1] & 0xe0) === 0xe0) {
    return (head[1] & 0x06) === 0 ? { mediaType: 'audio/aac', extension: 'aac' } : { mediaType: 'audio/mpeg', extension: 'mp3' };
  }
  if (ascii(4, 8) === 'ftyp') return isoMediaType(ascii(8, 12), payloadType);
  if (TEXT_TYPES.has(payloadType)) return { mediaType: 'text/plain', extension: 'txt' };
  return { mediaType: 'application/octet-stream', extension: 'bin' };
}

/** An ISO base media file (MP4 family) by its major brand; a brand not listed here by what was recorded. */
function isoMediaType(brand: string, payloadType: PayloadType): MediaType {
  if (brand === 'M4A ' || brand === 'M4B ') return { mediaType: 'audio/mp4', extension: 'm4a' };
  if (brand === 'qt  ') return { mediaType: 'video/quicktime', extension: 'mov' };
  if (['heic', 'heix', 'mif1', 'msf1'].includes(brand)) return { mediaType: 'image/heic', extension: 'heic' };
  if (brand.startsWith('3gp') || brand.startsWith('3g2')) {
    return AUDIO_TYPES.has(payloadType) ? { mediaType: 'audio/3gpp', extension: '3gp' } : { mediaType: 'video/3gpp', extension: '3gp' };
  }
  return AUDIO_TYPES.has(payloadType) ? { mediaType: 'audio/mp4', extension: 'm4a' } : { mediaType: 'video/mp4', extension: 'mp4' };
}
