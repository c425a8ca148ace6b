import { createCipheriv, createDecipheriv, createHash, randomBytes, type DecipherGCM } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { unwrapDek, wrapDek, type KekDeps } from './envelope.ts';
import { ValidationError } from '../core/errors.ts';
import { inlineHasher, type PlaintextHasher } from '../payloads/public.ts';

/**
 * Payload crypto (the agreement in DESIGN.md §7, docs/device-protocol.md "Payloads"):
 *
 * - a fresh 32-byte DEK per payload; `encrypted_dek` = the DEK wrapped with the tenant device KEK `key_id`
 *   (`wrapDek` of the sealed-upload envelope: one wrapping, AAD `verity-dek:v1:<client>:<key_id>`);
 * - content object (raw bucket) = AES-256-GCM(DEK, `iv`) ciphertext followed by the 16-byte tag;
 * - `meta` = base64 of `meta_iv(12) | ciphertext | tag(16)`, AES-256-GCM(DEK, meta_iv) of the JSON meta;
 * - `checksum` = SHA-256 hex of the plaintext content.
 *
 * The payload item keeps what registration sent under these attributes (PayloadSealFields): `encrypted_dek`, `key_id`,
 * `content_iv` (the registration's `iv`), `sealed_meta` (the registration's `meta`) and `checksum`.
 */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const DEK_BYTES = 32;

/** The sealed attributes a payload item carries (what openPayloadMeta and the processing read). */
export interface PayloadSealFields {
  [attribute: string]: unknown;
  encrypted_dek?: unknown;
  key_id?: unknown;
  content_iv?: unknown;
  sealed_meta?: unknown;
  checksum?: unknown;
}

/** Why a payload does not open: the processing maps any of these to Failed. */
export type PayloadCryptoFailure = 'key' | 'meta' | 'content' | 'checksum';

export class PayloadCryptoError extends Error {
  override readonly name = 'PayloadCryptoError';
  constructor(
    readonly failure: PayloadCryptoFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What a device sends to POST /device/v1/payloads (less payload_reference and payload_type). */
export interface PayloadSeal {
  encrypted_dek: string;
  iv: string;
  key_id: string;
  meta: string;
  checksum: string;
}

/** base64 of `meta_iv | ciphertext | tag` of the JSON of `meta` under `dek`. */
export function sealPayloadMeta(dek: Buffer, meta: unknown): string {
  const metaIv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dek, metaIv);
  const sealed = Buffer.concat([metaIv, cipher.update(Buffer.from(JSON.stringify(meta), 'utf8')), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64');
}

/** The JSON inside `sealedMeta` (base64) under `dek`; PayloadCryptoError('meta') when it does not open or parse. */
export function openSealedMeta(dek: Buffer, sealedMeta: string): unknown {
  const sealed = Buffer.from(sealedMeta, 'base64');
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new PayloadCryptoError('meta', 'meta: Too short to be sealed data');
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', dek, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    plaintext = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new PayloadCryptoError('meta', 'meta: Does not open with the payload key');
  }
  try {
    return JSON.parse(plaintext.toString('utf8')) as unknown;
  } catch {
    throw new PayloadCryptoError('meta', 'meta: Sealed content must be JSON');
  }
}

/** AES-256-GCM(dek, iv) of a content stream, the tag appended at the end (the simulator and bench seal large media). */
export function encryptContent(dek: Buffer, iv: Buffer): Transform {
  const cipher = createCipheriv('aes-256-gcm', dek, iv);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, cipher.update(chunk));
    },
    flush(callback) {
      callback(null, Buffer.concat([cipher.final(), cipher.getAuthTag()]));
    },
  });
}

export interface SealPayloadInput {
  kek: Buffer;
  client: string;
  keyId: string;
  content: Buffer;
  meta: unknown;
  /** Tests: a chosen DEK (default a fresh random one). */
  dek?: Buffer;
}

/**
 * Seals a payload the way a device does: the registration fields and the ciphertext object to PUT. For tests, the
 * seed and the device simulator (small payloads; large ones use encryptContent with their own DEK and IV).
 */
export function sealPayload(input: SealPayloadInput): { registration: PayloadSeal; ciphertext: Buffer; dek: Buffer } {
  const dek = input.dek ?? randomBytes(DEK_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dek, iv);
  const ciphertext = Buffer.concat([cipher.update(input.content), cipher.final(), cipher.getAuthTag()]);
  return {
    registration: {
      encrypted_dek: wrapDek(input.kek, input.client, input.keyId, dek).toString('base64'),
      iv: iv.toString('base64'),
      key_id: input.keyId,
      meta: sealPayloadMeta(dek, input.meta),
      checksum: createHash('sha256').update(input.content).digest('hex'),
    },
    ciphertext,
    dek,
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The payload's DEK (unwrapped with the tenant KEK `key_id`); PayloadCryptoError('key') when it does not open. */
export async function openPayloadDek(deps: KekDeps, client: string, item: PayloadSealFields): Promise<Buffer> {
  const keyId = text(item.key_id);
  const encryptedDek = text(item.encrypted_dek);
  if (keyId === undefined || encryptedDek === undefined) throw new PayloadCryptoError('key', 'encrypted_dek: Missing');
  try {
    return await unwrapDek(deps, client, keyId, encryptedDek);
  } catch (error) {
    if (error instanceof ValidationError) throw new PayloadCryptoError('key', error.message);
    throw error;
  }
}

/** The decrypted meta (JSON, unchecked: parse it with META_BY_TYPE) of a payload item of `client`. */
export async function openPayloadMeta(deps: KekDeps, client: string, item: PayloadSealFields): Promise<unknown> {
  const sealedMeta = text(item.sealed_meta);
  if (sealedMeta === undefined) throw new PayloadCryptoError('meta', 'meta: Missing');
  return openSealedMeta(await openPayloadDek(deps, client, item), sealedMeta);
}

/** How decryptContent hashes and who sees the plaintext before the consumer. */
export interface DecryptOptions {
  /** SHA-256 of the plaintext: inline by default; `sharedHashWorker.hasher()` runs it on another thread. */
  hasher?: PlaintextHasher;
  /**
   * Sees every group of plaintext parts, in order, just before the consumer gets it; the last group (`last` true)
   * only once the tag and the checksum verified. Awaited: a slow observer holds the stream back, and a throw fails it,
   * so the consumer never receives the last bytes (the processing's malware scan gates the processed object here).
   */
  observe?: (parts: Buffer[], last: boolean) => void | Promise<void>;
}

/**
 * Decrypts `ciphertext | tag` as a stream in constant memory: holds back the last 16 bytes (the tag candidate),
 * hashes the plaintext as it passes, and at the end verifies the GCM tag, then the SHA-256 `checksum`. Either failing
 * errors the stream with PayloadCryptoError ('content' or 'checksum'), so a consumer (an S3 PUT) is aborted and never
 * completes with unverified plaintext.
 */
export function decryptContent(dek: Buffer, iv: Buffer, checksum: string, options: DecryptOptions = {}): Transform {
  if (iv.length !== IV_BYTES) throw new PayloadCryptoError('content', `iv: Must be ${IV_BYTES} bytes`);
  return new DecryptStream(createDecipheriv('aes-256-gcm', dek, iv), checksum.toLowerCase(), options.hasher ?? inlineHasher(), options.observe);
}

class DecryptStream extends Transform {
  private tail = Buffer.alloc(0);
  /** The last hashed parts, released only once more come back (or the tag and checksum verified). */
  private pending: Buffer[] = [];

  constructor(
    private readonly decipher: DecipherGCM,
    private readonly checksum: string,
    private readonly hasher: PlaintextHasher,
    private readonly observe: DecryptOptions['observe'],
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.decrypt(chunk).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    this.verify().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.hasher.abort();
    callback(error);
  }

  private async decrypt(chunk: Buffer): Promise<void> {
    let parts: Buffer[];
    if (chunk.length >= TAG_BYTES) {
      // The held-back tail was not the tag after all: decrypt it, and hold back this chunk's last 16 bytes. The
      // parts are passed on as they are: joining them would copy every chunk once more.
      parts = [this.decipher.update(this.tail), this.decipher.update(chunk.subarray(0, chunk.length - TAG_BYTES))];
      this.tail = Buffer.from(chunk.subarray(chunk.length - TAG_BYTES));
    } else {
      const joined = Buffer.concat([this.tail, chunk]);
      const release = Math.max(0, joined.length - TAG_BYTES);
      parts = [this.decipher.update(joined.subarray(0, release))];
      this.tail = joined.subarray(release);
    }
    parts = parts.filter((part) => part.length > 0);
    if (parts.length === 0) return;
    await this.release(await this.hasher.update(parts));
  }

  /**
   * GCM's final() yields no bytes, so without holding back a consumer would have every plaintext byte (an S3 PUT of
   * a known length could complete) before the tag is checked: the newest hashed parts wait for the next ones, and
   * the last of all for verify().
   */
  private async release(hashed: Buffer[]): Promise<void> {
    if (hashed.length === 0) return;
    const ready = this.pending;
    this.pending = hashed;
    if (ready.length === 0) return;
    await this.observe?.(ready, false);
    for (const part of ready) this.push(part);
  }

  private async verify(): Promise<void> {
    if (this.tail.length < TAG_BYTES) throw new PayloadCryptoError('content', 'content: Too short to carry a tag');
    let last: Buffer;
    try {
      this.decipher.setAuthTag(this.tail);
      last = this.decipher.final();
    } catch {
      throw new PayloadCryptoError('content', 'content: Authentication tag does not verify (tampered or wrong key)');
    }
    if (last.length > 0) await this.release(await this.hasher.update([last]));
    const { parts, digest } = await this.hasher.finish();
    if (digest !== this.checksum) throw new PayloadCryptoError('checksum', 'content: SHA-256 of the plaintext does not match checksum');
    const final = [...this.pending, ...parts];
    this.pending = [];
    await this.observe?.(final, true);
    for (const part of final) this.push(part);
  }
}
