import { verify } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyUnwrapError } from '../../ports/key-service.ts';
import { createLocalKeyService } from './local-key-service.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'verity-keys-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('local key service', () => {
  it('creates the master key 0600 on first use and reuses it', async () => {
    const keys = createLocalKeyService({ dataDir });
    const { keyId } = await keys.createTenantKey('acme');
    const { plaintext, wrapped } = await keys.generateDataKey(keyId, { client: 'acme' });
    const info = await stat(join(dataDir, 'master.key'));
    expect(info.mode & 0o777).toBe(0o600);
    expect(info.size).toBe(32);
    const before = await readFile(join(dataDir, 'master.key'));
    // A second service (another process) reads the same master key and can unwrap.
    const again = createLocalKeyService({ dataDir });
    expect(await again.unwrapKey(keyId, wrapped, { client: 'acme' })).toEqual(plaintext);
    expect(await readFile(join(dataDir, 'master.key'))).toEqual(before);
  });

  it('round-trips a wrapped key', async () => {
    const keys = createLocalKeyService({ dataDir });
    const { keyId } = await keys.createTenantKey('acme');
    const secret = new Uint8Array([1, 2, 3, 4, 5]);
    const wrapped = await keys.wrapKey(keyId, secret, { client: 'acme', purpose: 'test' });
    expect(Buffer.from(wrapped).includes(Buffer.from(secret))).toBe(false);
    expect(await keys.unwrapKey(keyId, wrapped, { purpose: 'test', client: 'acme' })).toEqual(secret);
  });

  it('refuses tampered bytes, another tenant key, another context and a foreign key id', async () => {
    const keys = createLocalKeyService({ dataDir });
    const { keyId } = await keys.createTenantKey('acme');
    const { keyId: otherAcmeKey } = await keys.createTenantKey('acme');
    const { keyId: globexKey } = await keys.createTenantKey('globex');
    const { wrapped } = await keys.generateDataKey(keyId, { client: 'acme' });
    const tampered = new Uint8Array(wrapped);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    await expect(keys.unwrapKey(keyId, tampered, { client: 'acme' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey(otherAcmeKey, wrapped, { client: 'acme' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey(keyId, wrapped, { client: 'acme', purpose: 'other' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey(globexKey, wrapped, { client: 'globex' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey(keyId, wrapped, { client: 'globex' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey('arn:aws:kms:x', wrapped, { client: 'acme' })).rejects.toThrow(KeyUnwrapError);
    await expect(keys.unwrapKey(keyId, new Uint8Array(3), { client: 'acme' })).rejects.toThrow(KeyUnwrapError);
  });

  it('keys different installations apart', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'verity-keys-'));
    try {
      const keys = createLocalKeyService({ dataDir });
      const { keyId } = await keys.createTenantKey('acme');
      const { wrapped } = await keys.generateDataKey(keyId, { client: 'acme' });
      await expect(createLocalKeyService({ dataDir: otherDir }).unwrapKey(keyId, wrapped, { client: 'acme' })).rejects.toThrow(KeyUnwrapError);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('signs with a key per key id and verifies only the same message, key and algorithm', async () => {
    const keys = createLocalKeyService({ dataDir });
    const message = new TextEncoder().encode('{"sequence":3}');
    const { signature, algorithm } = await keys.sign('local/audit-signing', message);
    expect(algorithm).toBe('ECDSA_SHA_256');
    expect(await createLocalKeyService({ dataDir }).verifySignature('local/audit-signing', message, signature, algorithm)).toBe(true);
    expect(await keys.verifySignature('local/audit-signing', new TextEncoder().encode('{"sequence":4}'), signature, algorithm)).toBe(false);
    expect(await keys.verifySignature('local/other', message, signature, algorithm)).toBe(false);
    expect(await keys.verifySignature('local/audit-signing', message, signature, 'HMAC_SHA_256')).toBe(false);
    expect(await keys.verifySignature('local/audit-signing', message, signature.subarray(1), algorithm)).toBe(false);
  });

  it('publishes the public half of a signing key, which verifies its signatures and no other key\'s', async () => {
    const keys = createLocalKeyService({ dataDir });
    const message = new TextEncoder().encode('{"sequence":5}');
    const { signature } = await keys.sign('local/audit-signing', message);
    const pem = await keys.signingPublicKeyPem('local/audit-signing');
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(verify('sha256', message, { key: pem, dsaEncoding: 'der' }, signature)).toBe(true);
    expect(verify('sha256', message, { key: await keys.signingPublicKeyPem('local/other'), dsaEncoding: 'der' }, signature)).toBe(false);
  });
});
