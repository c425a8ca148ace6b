import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * What the phone's app does with the enrolment key, written from docs/device-protocol.md as a client would write it
 * (the simulator is a client, not a backend module). `device-crypto.test.ts` proves each format against the server's
 * own code, so a drift on either side fails a test instead of a demo. Upload sealing (telemetry, GPS) is the one
 * piece taken from the core (`sealUpload` of `lambdas/device-crypto/envelope.ts`): the brief's "sealing material".
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENVELOPE_VERSION = 1;

function seal(key: Buffer, plaintext: Buffer, aad?: Buffer, iv: Buffer = randomBytes(IV_BYTES)): { iv: Buffer; body: Buffer } {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, body: Buffer.concat([ciphertext, cipher.getAuthTag()]) };
}

function open(key: Buffer, iv: Buffer, body: Buffer, aad?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) decipher.setAAD(aad);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}

/**
 * `ulid_encrypted`: base64 of `0x01 | len(client) | client | iv | ciphertext | tag`, AES-256-GCM under the tenant's
 * enrolment key (which the MDM pushes to the app), AAD `verity-device-reference:v1:<client>`.
 */
export function sealReference(enrolmentKey: Buffer, client: string, deviceReference: string): string {
  const label = Buffer.from(client, 'ascii');
  const { iv, body } = seal(enrolmentKey, Buffer.from(deviceReference, 'utf8'), Buffer.from(`verity-device-reference:v1:${client}`));
  return Buffer.concat([Buffer.from([ENVELOPE_VERSION, label.length]), label, iv, body]).toString('base64');
}

/** Opens `kek` from `GET /device/v1/keys`: base64 of `iv | ciphertext | tag`, AAD `verity-device-kek:v1:<client>:<key_id>`. */
export function openKek(enrolmentKey: Buffer, client: string, keyId: string, kek: string): Buffer {
  const bytes = Buffer.from(kek, 'base64');
  return open(enrolmentKey, bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES), Buffer.from(`verity-device-kek:v1:${client}:${keyId}`));
}
