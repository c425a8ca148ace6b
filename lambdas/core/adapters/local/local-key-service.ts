import { createCipheriv, createDecipheriv, createECDH, createHmac, createPrivateKey, createPublicKey, hkdfSync, randomBytes, randomUUID, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientId } from '#shared/contract/fields.ts';
import { KeyUnwrapError, type EncryptionContext, type KeyService } from '../../ports/key-service.ts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MASTER_FILE = 'master.key';
/**
 * Signatures are ECDSA P-256 over SHA-256 (DER), as the KMS signing key makes, so a firm verifies an exported trail
 * with openssl against the public key (signingPublicKeyPem) the same way on one machine as in AWS. Checkpoints
 * signed before that carry HMAC_SHA_256 and still verify.
 */
const LOCAL_SIGNING_ALGORITHM = 'ECDSA_SHA_256';
const LEGACY_SIGNING_ALGORITHM = 'HMAC_SHA_256';

/**
 * The local stand-in for KMS. One 256-bit master key lives in `<dataDir>/master.key` (created 0600 on first use);
 * a tenant key is derived from it with HKDF over the key id, so tenant keys need no storage of their own, and
 * wrapping is AES-256-GCM with the key id and encryption context as authenticated data. Unwrapping under another
 * tenant's key or context, or of altered bytes, fails authentication.
 * Key ids read `local/<client>/<uuid>`; the context's client must match the key's.
 */
export function createLocalKeyService(options: { dataDir: string }): KeyService {
  let master: Promise<Buffer> | undefined;
  const masterKey = () => {
    master ??= loadOrCreateMasterKey(options.dataDir);
    master.catch(() => {
      master = undefined;
    });
    return master;
  };

  const tenantKey = async (keyId: string, context: EncryptionContext): Promise<Buffer> => {
    const match = /^local\/([^/]+)\/[0-9a-f-]{36}$/.exec(keyId);
    if (match === null) throw new KeyUnwrapError('Unknown key id');
    if (match[1] !== context.client) throw new KeyUnwrapError('Key does not belong to this client');
    return Buffer.from(hkdfSync('sha256', await masterKey(), Buffer.from('verity-tenant-key'), Buffer.from(keyId), 32));
  };

  const additionalData = (keyId: string, context: EncryptionContext) =>
    Buffer.from(JSON.stringify([keyId, Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]));

  const service: KeyService = {
    async createTenantKey(client) {
      if (!ClientId.safeParse(client).success) throw new Error('Not a client id');
      return { keyId: `local/${client}/${randomUUID()}` };
    },
    async generateDataKey(keyId, context) {
      const plaintext = randomBytes(32);
      return { plaintext: new Uint8Array(plaintext), wrapped: await service.wrapKey(keyId, plaintext, context) };
    },
    async wrapKey(keyId, plaintext, context) {
      if (plaintext.byteLength > 4096) throw new Error('Only keys of up to 4 KiB are wrapped');
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await tenantKey(keyId, context), iv);
      cipher.setAAD(additionalData(keyId, context));
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return new Uint8Array(Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]));
    },
    async unwrapKey(keyId, wrapped, context) {
      const bytes = Buffer.from(wrapped);
      if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new KeyUnwrapError('Wrapped key malformed');
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', await tenantKey(keyId, context), iv);
      decipher.setAAD(additionalData(keyId, context));
      decipher.setAuthTag(tag);
      try {
        return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]));
      } catch (cause) {
        throw new KeyUnwrapError('Wrapped key does not authenticate', { cause });
      }
    },
    async sign(keyId, message) {
      if (message.byteLength > 4096) throw new Error('Only messages of up to 4 KiB are signed');
      const key = signingKeyOf(await masterKey(), keyId);
      return { signature: new Uint8Array(sign('sha256', message, { key, dsaEncoding: 'der' })), algorithm: LOCAL_SIGNING_ALGORITHM };
    },
    async verifySignature(keyId, message, signature, algorithm) {
      if (algorithm === LEGACY_SIGNING_ALGORITHM) {
        const expected = await hmac(keyId, message);
        return signature.byteLength === expected.length && timingSafeEqual(expected, signature);
      }
      if (algorithm !== LOCAL_SIGNING_ALGORITHM) return false;
      try {
        return verify('sha256', message, { key: createPublicKey(signingKeyOf(await masterKey(), keyId)), dsaEncoding: 'der' }, signature);
      } catch {
        return false; // not a DER signature at all
      }
    },
    async signingPublicKeyPem(keyId) {
      return createPublicKey(signingKeyOf(await masterKey(), keyId)).export({ type: 'spki', format: 'pem' }).toString();
    },
  };
  // The signing key of checkpoints written before signatures were ECDSA (another HKDF label than tenant keys).
  const hmac = async (keyId: string, message: Uint8Array) =>
    createHmac('sha256', Buffer.from(hkdfSync('sha256', await masterKey(), Buffer.from('verity-signing-key'), Buffer.from(keyId), 32)))
      .update(message)
      .digest();
  return service;
}

/**
 * The ECDSA P-256 signing key of a key id, derived from the master key with HKDF (a label of its own) so it needs no
 * storage: the scalar is the first HKDF output in the curve's range (counter in the info; out of range is ~2^-32).
 */
function signingKeyOf(master: Buffer, keyId: string): KeyObject {
  for (let counter = 0; ; counter += 1) {
    const scalar = Buffer.from(hkdfSync('sha256', master, Buffer.from('verity-ecdsa-signing-key'), Buffer.from(`${keyId}#${counter}`), 32));
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(scalar);
      const point = ecdh.getPublicKey();
      const b64 = (bytes: Buffer) => bytes.toString('base64url');
      return createPrivateKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256', d: b64(scalar), x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) } });
    } catch (error) {
      if (counter >= 3) throw error;
    }
  }
}


/** Reads the master key, creating it exclusively (0600) when absent so two processes cannot both write one. */
async function loadOrCreateMasterKey(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, MASTER_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      const key = randomBytes(32);
      await handle.writeFile(key);
      return key;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = await readFile(path);
  if (key.length !== 32) throw new Error(`${path} is not a 32-byte key`);
  return key;
}
