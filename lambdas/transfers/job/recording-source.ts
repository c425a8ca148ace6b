import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { decryptContent, IV_BYTES, openPayloadDek, PayloadCryptoError } from '../../device-crypto/public.ts';
import type { TransferFileItem } from '#core/store/entities/transfer-file.ts';
import type { RunContext } from './context.ts';

/** A recording that cannot be delivered as it is (gone, or it does not decrypt and verify): retrying will not help. */
export class RecordingUnavailableError extends Error {
  override readonly name = 'RecordingUnavailableError';
}

export interface OpenedRecording {
  /** The plaintext, decrypted as it is read; it errors at its end if the GCM tag or the device's SHA-256 fail. */
  body: AsyncIterable<Uint8Array>;
  /** The file extension its first bytes announce (`wav`, `mp4`, `jpg`, …), `bin` when they announce none. */
  extension: string;
}

/** What opening a recording needs of a run: its ports and tenant, and the payload items it read ahead. */
export type RecordingReadContext = Pick<RunContext, 'client' | 'payloadsRead'> & { deps: Pick<RunContext['deps'], 'table' | 'blobs' | 'keys'> };

/**
 * One stored recording opened outside a transfer run (a production): the same source, the same checks. The plaintext
 * errors at its end unless its GCM tag and the device's SHA-256 verify.
 */
export function openStoredRecording(
  deps: RecordingReadContext['deps'],
  client: string,
  payload: { payload_reference: string; s3_path?: string | undefined },
): Promise<OpenedRecording> {
  // Where the transfer's selection finds the sealed object (./selection.ts).
  const sourcePath = payload.s3_path ?? payloadObjectKey(client, payload.payload_reference);
  return openRecording({ deps, client, payloadsRead: new Map() }, { payload_reference: payload.payload_reference, source_path: sourcePath });
}

/**
 * Opens one recording for delivery: the payload's sealed object in the raw bucket, decrypted as a stream with its DEK
 * (device-crypto), verified against the device's checksum as it ends. Reading the processed copy instead would skip
 * the one check that proves the bytes are what the device sealed. The first chunk is read ahead to name the file.
 */
export async function openRecording(context: RecordingReadContext, file: Pick<TransferFileItem, 'payload_reference' | 'source_path'>): Promise<OpenedRecording> {
  const { deps, client } = context;
  const reference = file.payload_reference ?? '';
  const readAhead = context.payloadsRead.get(reference);
  context.payloadsRead.delete(reference);
  const stored = readAhead ?? (await deps.table.get(keys.payload.key(client, reference), { consistent: true }));
  if (stored === undefined) throw new RecordingUnavailableError(`payload: ${reference} no longer exists`);
  const payload = readPayload(stored);
  if (payload.is_legacy === true && payload.content_iv === undefined) return openMigrated(context, reference, payload);
  const iv = Buffer.from(payload.content_iv ?? '', 'base64');
  if (iv.length !== IV_BYTES) throw new RecordingUnavailableError(`payload: ${reference} has no content IV`);
  let dek: Buffer;
  try {
    dek = await openPayloadDek(deps, client, payload);
  } catch (error) {
    if (error instanceof PayloadCryptoError) throw new RecordingUnavailableError(`payload: ${reference}: ${error.message}`);
    throw error;
  }
  const raw = await deps.blobs.get('raw', file.source_path);
  if (raw === undefined) throw new RecordingUnavailableError(`payload: ${reference}: its sealed object ${file.source_path} is missing`);
  const sealed = raw.body;
  const plaintext = sealed.pipe(decryptContent(dek, iv, payload.checksum ?? ''));
  sealed.once('error', (error) => plaintext.destroy(error));
  const iterator = (plaintext as Readable)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done === true ? Buffer.alloc(0) : first.value;
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      if (head.length > 0) yield head;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // A reader that stops early (a failed upload) must not leave the sealed object's connection open.
      plaintext.destroy();
      sealed.destroy();
    }
  }
  return { body: body(), extension: extensionOf(head, payload.payload_type) };
}

/**
 * A recording a legacy migration brought in: no device sealed it, so there is no raw object to decrypt. Its processed
 * copy is read instead and checked, as it streams, against the SHA-256 the export declared and the import verified.
 */
async function openMigrated(context: RecordingReadContext, reference: string, payload: ReturnType<typeof readPayload>): Promise<OpenedRecording> {
  if (payload.s3_path === undefined) throw new RecordingUnavailableError(`payload: ${reference} has no stored media`);
  const stored = await context.deps.blobs.get('processed', payload.s3_path);
  if (stored === undefined) throw new RecordingUnavailableError(`payload: ${reference}: its object ${payload.s3_path} is missing`);
  const object = stored.body;
  const iterator = (object as Readable)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done === true ? Buffer.alloc(0) : first.value;
  async function* body(): AsyncGenerator<Uint8Array> {
    const hash = createHash('sha256');
    try {
      if (head.length > 0) {
        hash.update(head);
        yield head;
      }
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        hash.update(next.value);
        yield next.value;
      }
      if (hash.digest('hex') !== payload.checksum) throw new RecordingUnavailableError(`payload: ${reference}: its stored media does not match its checksum`);
    } finally {
      object.destroy();
    }
  }
  return { body: body(), extension: extensionOf(head, payload.payload_type) };
}

/** The extension a file's first bytes announce; messages without a known signature are text. */
export function extensionOf(head: Buffer, payloadType: string): string {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 6) === '#!AMR\n') return 'amr';
  if (ascii(4, 8) === 'ftyp') return payloadType === 'Video' ? 'mp4' : ascii(8, 11) === 'M4A' ? 'm4a' : 'mp4';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (ascii(1, 4) === 'PNG') return 'png';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  if (payloadType === 'SMS' || payloadType === 'RCS') return 'txt';
  return 'bin';
}
