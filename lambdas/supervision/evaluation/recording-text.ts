import type { Readable } from 'node:stream';
import type { Dependencies } from '#core/dependencies.ts';
import { payloadObjectKey } from '#core/store/keys.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import { openPayloadMeta, PayloadCryptoError } from '../../device-crypto/public.ts';
import { lexiconFieldOf, type RecordingText } from './evaluate-recording.ts';

/**
 * The text a lexicon reads of a recording, bounded: a message's text is the first SUPERVISED_TEXT_MAX_BYTES of its
 * processed object (the decrypted content processing wrote), so a huge message costs a bounded read and a bounded
 * evaluation; terms beyond that point are not looked for. Notes are the meta's `payload_notes` (the contract bounds
 * them already), cut to as many characters.
 */
export const SUPERVISED_TEXT_MAX_BYTES = 64 * 1024;

/** Reads at most `max` bytes of the stream, then stops it. */
async function leadingBytes(body: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of body) {
      const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
      parts.push(part);
      length += part.length;
      if (length >= max) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).subarray(0, max);
}

/**
 * Text of the bytes: UTF-8, a character cut at the bound left out. SMS and RCS bodies are text (an invalid byte reads
 * as U+FFFD, as the portal shows it); an MMS whose bytes are not UTF-8 is a media part, which has no text to read.
 */
export function textOfBytes(bytes: Uint8Array, type: PayloadType): string | undefined {
  try {
    // stream: a multi-byte character the bound cut in two is held back instead of failing the decode.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return type === 'MMS' ? undefined : new TextDecoder('utf-8').decode(bytes, { stream: true });
  }
}

/** A message's text from its processed object (undefined when the object is gone or holds no text). */
export async function messageText(deps: Pick<Dependencies, 'blobs'>, tenant: string, payload: Pick<PayloadItem, 'payload_reference' | 'payload_type'>): Promise<string | undefined> {
  const object = await deps.blobs.get('processed', payloadObjectKey(tenant, payload.payload_reference));
  if (object === undefined) return undefined;
  return textOfBytes(await leadingBytes(object.body, SUPERVISED_TEXT_MAX_BYTES), payload.payload_type);
}

/** The notes of a decrypted meta, bounded (undefined when it has none). */
export function notesOf(meta: unknown): string | undefined {
  const notes = meta !== null && typeof meta === 'object' ? (meta as { payload_notes?: unknown }).payload_notes : undefined;
  return typeof notes === 'string' && notes.length > 0 ? notes.slice(0, SUPERVISED_TEXT_MAX_BYTES) : undefined;
}

/**
 * What a lexicon reads of a stored recording (preview and apply read past recordings): its message text, or its
 * notes from its sealed meta. A meta that does not open gives no notes (processing failed such a recording already).
 */
export async function storedRecordingText(
  deps: Pick<Dependencies, 'blobs' | 'table' | 'keys'>,
  tenant: string,
  payload: PayloadItem,
): Promise<RecordingText | undefined> {
  const field = lexiconFieldOf(payload.payload_type);
  if (field === 'text') {
    const text = await messageText(deps, tenant, payload);
    return text === undefined ? undefined : { field, text };
  }
  if (field === 'notes') {
    // Older items held their meta decrypted.
    if (typeof payload.meta === 'object') {
      const notes = notesOf(payload.meta);
      return notes === undefined ? undefined : { field, text: notes };
    }
    try {
      const notes = notesOf(await openPayloadMeta(deps, tenant, payload));
      return notes === undefined ? undefined : { field, text: notes };
    } catch (error) {
      if (error instanceof PayloadCryptoError) return undefined;
      throw error;
    }
  }
  return undefined;
}
