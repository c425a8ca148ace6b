import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealedUpload } from '#shared/contract/entities/device-auth.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { ValidationError } from '../core/errors.ts';
import { readDeviceKeys } from '../core/store/entities/device-keys.ts';
import { keys } from '../core/store/keys.ts';

/**
 * Sealed uploads (telemetry, GPS, the capture completeness ledger): what a device sends as `encrypted_dek`, `iv`, `key_id`, `meta`.
 *
 * - A fresh 256-bit DEK per upload seals the JSON plaintext: `meta` = base64 of `ciphertext | tag(16)`,
 *   AES-256-GCM with the 12-byte `iv`, AAD `verity-upload:v1:<client>:<kind>:<key_id>`.
 * - `encrypted_dek` = base64 of `iv(12) | ciphertext | tag(16)`: the DEK under the tenant device KEK named by
 *   `key_id` (GET /device/v1/keys), AAD `verity-dek:v1:<client>:<key_id>`.
 *
 * The AADs bind tenant, kind and key: an envelope of another tenant, a GPS envelope posted as telemetry, or a
 * relabelled key_id does not open. Every failure to open is a 400 naming the field (the device's token was already
 * verified, so there is nothing to hide from it), never a 500.
 */
export type UploadKind = 'telemetry' | 'gps' | 'ledger';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const DEK_BYTES = 32;
/** Plaintext we accept in one envelope: far below DynamoDB's 400 KB item, which stores it (latest and history). */
export const MAX_PLAINTEXT_BYTES = 256 * 1024;

const dekAad = (client: string, keyId: string) => Buffer.from(`verity-dek:v1:${client}:${keyId}`);
const metaAad = (client: string, kind: UploadKind, keyId: string) => Buffer.from(`verity-upload:v1:${client}:${kind}:${keyId}`);

function gcmSeal(key: Buffer, iv: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function gcmOpen(key: Buffer, iv: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** A device's sealing material: the tenant KEK it opened from GET /device/v1/keys, and that key's id. */
export interface DeviceKek {
  kek: Buffer;
  client: string;
  keyId: string;
}

/**
 * Seals `value` (JSON) the way a device does, with the KEK it opened from GET /device/v1/keys. Used by tests, the
 * seed and the device simulator.
 */
export function sealUpload({ kek, client, keyId }: DeviceKek, kind: UploadKind, value: unknown): SealedUpload {
  const dek = randomBytes(DEK_BYTES);
  const iv = randomBytes(IV_BYTES);
  const meta = gcmSeal(dek, iv, Buffer.from(JSON.stringify(value), 'utf8'), metaAad(client, kind, keyId));
  return { encrypted_dek: wrapDek(kek, client, keyId, dek).toString('base64'), iv: iv.toString('base64'), key_id: keyId, meta: meta.toString('base64') };
}

/** `iv(12) | ciphertext | tag(16)` of a 256-bit DEK under the KEK `keyId` (sealed uploads and payloads share it). */
export function wrapDek(kek: Buffer, client: string, keyId: string, dek: Buffer): Buffer {
  const dekIv = randomBytes(IV_BYTES);
  return Buffer.concat([dekIv, gcmSeal(kek, dekIv, dek, dekAad(client, keyId))]);
}

export type KekDeps = Pick<Dependencies, 'table' | 'keys'>;

/** Unwrapped KEKs by tenant and key id, for the life of a container (each unwrap is a KMS call). */
const kekCache = new Map<string, Promise<Buffer | undefined>>();

/** The tenant's KEK named `keyId` (current or rotated out), or undefined when the tenant has no such key. */
async function kekOf(deps: KekDeps, client: string, keyId: string): Promise<Buffer | undefined> {
  const cacheKey = `${client}\n${keyId}`;
  let pending = kekCache.get(cacheKey);
  if (pending === undefined) {
    pending = (async () => {
      const item = await deps.table.get(keys.deviceKeys.kek(client, keyId));
      if (item === undefined) return undefined;
      const stored = readDeviceKeys(item);
      const kek = await deps.keys.unwrapKey(stored.tenant_key_id, Buffer.from(stored.wrapped_kek, 'base64'), {
        client,
        purpose: 'device-kek',
        key_id: keyId,
      });
      return Buffer.from(kek);
    })();
    kekCache.set(cacheKey, pending);
    // Only a found key is kept: a miss may become a hit (first keys of a tenant), a fault may be transient.
    pending.then((found) => (found === undefined ? kekCache.delete(cacheKey) : undefined)).catch(() => kekCache.delete(cacheKey));
  }
  return pending;
}

/**
 * The DEK of `encryptedDek` (base64 of `wrapDek`'s output) under the tenant's KEK `keyId`. Unknown or foreign key_id,
 * a wrong length or a tampered wrap: ValidationError naming `body.key_id` or `body.encrypted_dek`.
 */
export async function unwrapDek(deps: KekDeps, client: string, keyId: string, encryptedDek: string): Promise<Buffer> {
  // Key ids name their tenant (`kek/<client>/<ulid>`); another tenant's id is refused before any read.
  if (!keyId.startsWith(`kek/${client}/`)) throw new ValidationError(['body.key_id: Unknown key']);
  const kek = await kekOf(deps, client, keyId);
  if (kek === undefined) throw new ValidationError(['body.key_id: Unknown key']);
  const wrapped = Buffer.from(encryptedDek, 'base64');
  if (wrapped.length !== IV_BYTES + DEK_BYTES + TAG_BYTES) throw new ValidationError(['body.encrypted_dek: Must be a wrapped 256-bit key']);
  try {
    return gcmOpen(kek, wrapped.subarray(0, IV_BYTES), wrapped.subarray(IV_BYTES), dekAad(client, keyId));
  } catch {
    throw new ValidationError(['body.encrypted_dek: Does not open with this key_id']);
  }
}

/**
 * Opens a sealed upload of `client` and returns its plaintext parsed as JSON (the caller parses it with the contract).
 * Unknown or foreign key_id, wrong lengths, a tampered DEK or meta, or plaintext that is not JSON: 400 with the field.
 */
export async function openUpload(deps: KekDeps, client: string, kind: UploadKind, upload: SealedUpload): Promise<unknown> {
  const dek = await unwrapDek(deps, client, upload.key_id, upload.encrypted_dek);

  const iv = Buffer.from(upload.iv, 'base64');
  if (iv.length !== IV_BYTES) throw new ValidationError([`body.iv: Must be ${IV_BYTES} bytes`]);
  const sealed = Buffer.from(upload.meta, 'base64');
  if (sealed.length <= TAG_BYTES) throw new ValidationError(['body.meta: Too short to be sealed data']);
  if (sealed.length - TAG_BYTES > MAX_PLAINTEXT_BYTES) throw new ValidationError([`body.meta: Must be at most ${MAX_PLAINTEXT_BYTES} bytes`]);
  let plaintext: Buffer;
  try {
    plaintext = gcmOpen(dek, iv, sealed, metaAad(client, kind, upload.key_id));
  } catch {
    throw new ValidationError(['body.meta: Does not open (tampered, or sealed for another key or kind)']);
  }
  try {
    return JSON.parse(plaintext.toString('utf8')) as unknown;
  } catch {
    throw new ValidationError(['body.meta: Sealed content must be JSON']);
  }
}
