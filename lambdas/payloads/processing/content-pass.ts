import { PassThrough } from 'node:stream';
import type { Dependencies } from '../../core/dependencies.ts';
import type { ObjectLockOptions } from '../../core/ports/blob-store.ts';
import type { ScanVerdict } from '../../core/ports/malware-scanner.ts';
import { sharedHashWorker } from './hash-worker.ts';
import { decryptContent, PayloadCryptoError, TAG_BYTES } from '../../device-crypto/public.ts';
import { inlineHasher } from './plaintext-hasher.ts';
import type { WaveformPeaksSink } from './waveform-peaks.ts';

/** Below this size the plaintext is hashed inline: handing it to the worker thread costs more than it saves. */
export const WORKER_HASH_MIN_BYTES = 4 * 1024 * 1024;

export type ContentOutcome =
  | { outcome: 'written' }
  | { outcome: 'failed'; reason: string }
  | { outcome: 'infected'; signature: string }
  | { outcome: 'scan-pending' };

export interface ContentPassInput {
  /** Raw and processed object key (the same in both buckets). */
  objectKey: string;
  dek: Buffer;
  iv: Buffer;
  checksum: string;
  lock: ObjectLockOptions | undefined;
  /** Audio: sees the plaintext as it passes, for the waveform peaks (waveform-peaks.ts); read once 'written'. */
  peaks?: WaveformPeaksSink;
}

/** Stops the write when the scanner's verdict is not clean (the error never leaves this module). */
class ScanStop extends Error {}

/**
 * The content work of processing in ONE pass over the raw object, in constant memory: the ciphertext is decrypted
 * once, and the plaintext feeds the SHA-256 checksum, the malware scanner and the PUT of the processed object at the
 * same time.
 *
 * The processed object can only complete once the tag and the checksum verified AND the scanner said clean: the
 * decryption holds back its last bytes until then (`observe` of decryptContent), and a hit, a pending verdict or a
 * crypto failure errors the stream, which aborts the PUT. A scanner that never reads the body (GuardDuty reads its
 * own tag) is fed nothing once its verdict is in; one that reads late still sees every byte (the feed buffers with
 * backpressure until it reads or answers).
 */
export async function passContent(deps: Pick<Dependencies, 'blobs' | 'scanner'>, input: ContentPassInput): Promise<ContentOutcome> {
  const raw = await deps.blobs.get('raw', input.objectKey);
  if (raw === undefined) return { outcome: 'failed', reason: 'content: Object missing' };
  if (raw.contentLength < TAG_BYTES) {
    raw.body.destroy();
    return { outcome: 'failed', reason: 'content: Too short to carry a tag' };
  }

  input.peaks?.expectBytes(raw.contentLength - TAG_BYTES);
  const feed = new PassThrough();
  let verdict: ScanVerdict | undefined;
  let scanError: unknown;
  const subject = { bucket: 'raw' as const, key: input.objectKey, revision: raw.etag, contentLength: raw.contentLength - TAG_BYTES, body: async () => feed };
  const scanned = deps.scanner.inspect(subject).then(
    (answer) => {
      verdict = answer;
    },
    (error: unknown) => {
      scanError = error;
    },
  );
  const stopIfNotClean = () => {
    if (scanError !== undefined) throw scanError;
    if (verdict !== undefined && verdict.verdict !== 'clean') throw new ScanStop();
  };

  const hasher = raw.contentLength >= WORKER_HASH_MIN_BYTES ? sharedHashWorker.hasher() : inlineHasher();
  const decrypt = decryptContent(input.dek, input.iv, input.checksum, {
    hasher,
    observe: async (parts, last) => {
      stopIfNotClean();
      if (input.peaks !== undefined) for (const part of parts) input.peaks.push(part);
      if (verdict === undefined) {
        for (const part of parts) if (!feed.write(part)) await Promise.race([new Promise((resolve) => feed.once('drain', resolve)), scanned]);
        if (last) {
          feed.end();
          await scanned;
        }
      }
      // The last bytes go to the processed object only with a clean verdict.
      if (last) stopIfNotClean();
    },
  });
  let cryptoFailure: PayloadCryptoError | undefined;
  decrypt.on('error', (error) => {
    if (error instanceof PayloadCryptoError) cryptoFailure = error;
    // The scanner must not wait for bytes that will never come.
    feed.destroy();
  });
  raw.body.on('error', (error) => decrypt.destroy(error));

  let writeError: unknown;
  try {
    await deps.blobs.put('processed', input.objectKey, raw.body.pipe(decrypt), {
      contentLength: raw.contentLength - TAG_BYTES,
      contentType: 'application/octet-stream',
      metadata: { checksum: input.checksum },
      ...(input.lock === undefined ? {} : { lock: input.lock }),
    });
  } catch (error) {
    writeError = error;
  } finally {
    raw.body.destroy();
    decrypt.destroy();
    feed.destroy();
    await scanned;
  }

  if (cryptoFailure !== undefined) return { outcome: 'failed', reason: cryptoFailure.message };
  if (writeError instanceof PayloadCryptoError) return { outcome: 'failed', reason: writeError.message };
  if (verdict?.verdict === 'infected') return { outcome: 'infected', signature: verdict.signature };
  if (verdict?.verdict === 'pending') return { outcome: 'scan-pending' };
  if (writeError !== undefined) throw writeError;
  if (scanError !== undefined) throw scanError;
  if (verdict === undefined) throw new Error('The malware scan gave no verdict');
  return { outcome: 'written' };
}
