import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { ClientId } from '#shared/contract/fields.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { UnauthorizedError } from '../core/errors.ts';
import { ConditionFailedError, type TableItem } from '../core/ports/table-store.ts';
import { deviceKeysToItems, readDeviceKeys } from '../core/store/entities/device-keys.ts';
import { keys } from '../core/store/keys.ts';

/**
 * A tenant's device keys (docs/device-protocol.md):
 * - the ENROLMENT key (AES-256) seals device references into `ulid_encrypted`;
 * - the device KEK (AES-256, `key_id` `kek/<client>/<ulid>`) is what devices wrap each payload's DEK with.
 * Both are created on first use as data keys of a tenant key of the KeyService (KMS; the local AES-256-GCM provider),
 * and stored only wrapped under it, with the tenant as encryption context.
 */
export interface DeviceKeys {
  tenantKeyId: string;
  enrolmentKey: Buffer;
  kekId: string;
  kek: Buffer;
}

type KeyDeps = Pick<Dependencies, 'table' | 'keys'>;

const ENVELOPE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Plaintext keys per tenant, for the life of a Lambda container (unwrapping on every call would cost a KMS call). */
const cache = new Map<string, Promise<DeviceKeys>>();

/** Reads (or creates on first use) the tenant's device keys. */
export function deviceKeysOf(deps: KeyDeps, client: string): Promise<DeviceKeys> {
  const cacheKey = `${client}`;
  let pending = cache.get(cacheKey);
  if (pending === undefined) {
    pending = loadOrCreate(deps, client);
    cache.set(cacheKey, pending);
    pending.catch(() => cache.delete(cacheKey));
  }
  return pending;
}

/** Reads the stored keys only; undefined when the tenant has none yet (no device was ever sealed for it). */
async function read(deps: KeyDeps, client: string): Promise<DeviceKeys | undefined> {
  const item = await deps.table.get(keys.deviceKeys.current(client), { consistent: true });
  return item === undefined ? undefined : unwrap(deps, client, item);
}

async function unwrap(deps: KeyDeps, client: string, item: TableItem): Promise<DeviceKeys> {
  const stored = readDeviceKeys(item);
  const tenantKeyId = stored.tenant_key_id;
  const kekId = stored.kek_id;
  const enrolmentKey = await deps.keys.unwrapKey(tenantKeyId, Buffer.from(stored.wrapped_enrolment_key, 'base64'), {
    client,
    purpose: 'device-enrolment',
  });
  const kek = await deps.keys.unwrapKey(tenantKeyId, Buffer.from(stored.wrapped_kek, 'base64'), {
    client,
    purpose: 'device-kek',
    key_id: kekId,
  });
  return { tenantKeyId, enrolmentKey: Buffer.from(enrolmentKey), kekId, kek: Buffer.from(kek) };
}

async function loadOrCreate(deps: KeyDeps, client: string): Promise<DeviceKeys> {
  const existing = await read(deps, client);
  if (existing !== undefined) return existing;
  const { keyId: tenantKeyId } = await deps.keys.createTenantKey(client);
  const kekId = `kek/${client}/${ulid()}`;
  const enrolment = await deps.keys.generateDataKey(tenantKeyId, { client, purpose: 'device-enrolment' });
  const kek = await deps.keys.generateDataKey(tenantKeyId, { client, purpose: 'device-kek', key_id: kekId });
  const items = deviceKeysToItems({
    client,
    tenant_key_id: tenantKeyId,
    kek_id: kekId,
    wrapped_enrolment_key: Buffer.from(enrolment.wrapped).toString('base64'),
    wrapped_kek: Buffer.from(kek.wrapped).toString('base64'),
  });
  try {
    // Both items or neither; the condition makes racing first uses agree on one set of keys.
    await deps.table.transactWrite([
      { kind: 'put', item: items.current, condition: { kind: 'item-not-exists' } },
      { kind: 'put', item: items.byKek, condition: { kind: 'item-not-exists' } },
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const winner = await read(deps, client);
    if (winner === undefined) throw error;
    return winner;
  }
  return {
    tenantKeyId,
    enrolmentKey: Buffer.from(enrolment.plaintext),
    kekId,
    kek: Buffer.from(kek.plaintext),
  };
}

const referenceAad = (client: string) => Buffer.from(`verity-device-reference:v1:${client}`);
const kekAad = (client: string, kekId: string) => Buffer.from(`verity-device-kek:v1:${client}:${kekId}`);

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

/**
 * `ulid_encrypted` for a device reference: standard base64 of
 * `0x01 | len(client) | client | iv(12) | ciphertext | tag(16)`, AES-256-GCM under the tenant's enrolment key with
 * AAD `verity-device-reference:v1:<client>`. The tenant rides in clear (it picks the key); the AAD binds it, so an
 * envelope re-labelled with another tenant does not open. Used by tests, the seed and the device simulator.
 */
export async function sealDeviceReference(deps: KeyDeps, client: string, deviceReference: string): Promise<string> {
  const { enrolmentKey } = await deviceKeysOf(deps, client);
  const label = Buffer.from(client, 'ascii');
  const body = seal(enrolmentKey, Buffer.from(deviceReference, 'utf8'), referenceAad(client));
  return Buffer.concat([Buffer.from([ENVELOPE_VERSION, label.length]), label, body]).toString('base64');
}

/** The tenant an envelope names, without opening it; undefined when it is not an envelope of this format. */
export function envelopeClient(ulidEncrypted: string): string | undefined {
  const bytes = Buffer.from(ulidEncrypted, 'base64');
  if (bytes.length < 2 || bytes[0] !== ENVELOPE_VERSION) return undefined;
  const length = bytes[1] as number;
  const client = bytes.subarray(2, 2 + length).toString('ascii');
  if (bytes.length < 2 + length + IV_BYTES + TAG_BYTES + 1) return undefined;
  return ClientId.safeParse(client).success ? client : undefined;
}

const INVALID = 'Device credentials are invalid';
/** Device references are ULIDs (Crockford base32, 26 characters). */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Opens `ulid_encrypted`: the tenant and the device reference. Anything malformed, tampered with, sealed for another
 * tenant or for a tenant without keys is the same 401, so a caller learns nothing about which tenants exist.
 */
export async function openDeviceReference(deps: KeyDeps, ulidEncrypted: string): Promise<{ client: string; deviceReference: string }> {
  const client = envelopeClient(ulidEncrypted);
  if (client === undefined) throw new UnauthorizedError(INVALID);
  const stored = await deviceKeysIfAny(deps, client);
  if (stored === undefined) throw new UnauthorizedError(INVALID);
  const bytes = Buffer.from(ulidEncrypted, 'base64');
  let reference: string;
  try {
    reference = open(stored.enrolmentKey, bytes.subarray(2 + client.length), referenceAad(client)).toString('utf8');
  } catch {
    throw new UnauthorizedError(INVALID);
  }
  if (!ULID.test(reference)) throw new UnauthorizedError(INVALID);
  return { client, deviceReference: reference };
}

/** Like deviceKeysOf, but never creates keys (an unauthenticated caller must not make us create a tenant key). */
async function deviceKeysIfAny(deps: KeyDeps, client: string): Promise<DeviceKeys | undefined> {
  const cached = cache.get(client);
  if (cached !== undefined) return cached;
  const stored = await read(deps, client);
  if (stored !== undefined) cache.set(client, Promise.resolve(stored));
  return stored;
}

/**
 * The KEK as the device receives it (`GET /device/v1/keys`): sealed with the enrolment key, which the app holds
 * (docs/device-protocol.md), AAD `verity-device-kek:v1:<client>:<key_id>`; base64 of `iv | ciphertext | tag`.
 */
export async function kekForDevice(deps: KeyDeps, client: string): Promise<{ key_id: string; kek: string }> {
  const stored = await deviceKeysOf(deps, client);
  return { key_id: stored.kekId, kek: seal(stored.enrolmentKey, stored.kek, kekAad(client, stored.kekId)).toString('base64') };
}

/** What a device does with `kek` (the simulator and tests): open it with the enrolment key. */
export function openKekForDevice(enrolmentKey: Buffer, client: string, keyId: string, kek: string): Buffer {
  return open(enrolmentKey, Buffer.from(kek, 'base64'), kekAad(client, keyId));
}
