import { armor, enums, generateKey } from 'openpgp';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/contract/messages.ts';
import { PackagingError } from './errors.ts';
import { parsePgpPublicKey } from './pgp-key.ts';

const userIDs = [{ name: 'Receiver', email: 'receiver@example.test' }];

async function refusal(armored: string, now?: Date): Promise<readonly string[]> {
  try {
    await parsePgpPublicKey(armored, 'pgp_key', now);
  } catch (error) {
    expect(error).toBeInstanceOf(PackagingError);
    return (error as PackagingError).lines;
  }
  throw new Error('the key was accepted');
}

describe('parsePgpPublicKey', () => {
  it('reads the fingerprint, algorithm, expiry and user id of an armoured public key', async () => {
    const created = new Date('2026-01-01T00:00:00Z');
    const { publicKey } = await generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs, date: created, keyExpirationTime: 365 * 24 * 3600, format: 'armored' });
    const parsed = await parsePgpPublicKey(publicKey, 'pgp_key', new Date('2026-06-01T00:00:00Z'));
    expect(parsed.fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect(parsed.fingerprint).toBe(parsed.key.getFingerprint().toUpperCase());
    expect(parsed.algorithm).toBe('eddsaLegacy ed25519Legacy');
    expect(parsed.expiresAt?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parsed.userId).toBe('Receiver <receiver@example.test>');
  });

  it('reads an RSA key that never expires', async () => {
    const { publicKey } = await generateKey({ type: 'rsa', rsaBits: 2048, userIDs, format: 'armored' });
    const parsed = await parsePgpPublicKey(publicKey);
    expect(parsed.algorithm).toBe('rsaEncryptSign 2048');
    expect(parsed.expiresAt).toBeUndefined();
  });

  it('refuses what is not a key with the contract message, on the given path', async () => {
    for (const bad of ['', 'not a key', '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----', '\u0000'.repeat(64)]) {
      expect(await refusal(bad)).toEqual([`pgp_key: ${MESSAGES.pgpKey}`]);
    }
    await expect(parsePgpPublicKey('garbage', 'body.pgp_key')).rejects.toThrow(`body.pgp_key: ${MESSAGES.pgpKey}`);
  });

  it('refuses a private key without echoing it', async () => {
    const { privateKey } = await generateKey({ type: 'ecc', userIDs, format: 'armored' });
    const lines = await refusal(privateKey);
    expect(lines).toEqual([`pgp_key: ${MESSAGES.pgpKey} (this is a private key; give the public key only)`]);
    expect(lines.join('')).not.toContain('PRIVATE KEY BLOCK');
  });

  it('refuses an expired key, a revoked key, two keys in one block and a key that cannot encrypt', async () => {
    const past = new Date('2020-01-01T00:00:00Z');
    const expired = await generateKey({ type: 'ecc', userIDs, date: past, keyExpirationTime: 3600, format: 'armored' });
    expect(await refusal(expired.publicKey)).toEqual([`pgp_key: ${MESSAGES.pgpKey} (the key expired on 2020-01-01T01:00:00.000Z)`]);

    const revoked = await generateKey({ type: 'ecc', userIDs, format: 'armored' });
    const { revokeKey, readPrivateKey } = await import('openpgp');
    const { publicKey: revokedKey } = await revokeKey({ key: await readPrivateKey({ armoredKey: revoked.privateKey }), format: 'armored' });
    expect(await refusal(revokedKey)).toEqual([`pgp_key: ${MESSAGES.pgpKey} (the key is revoked)`]);

    const second = await generateKey({ type: 'ecc', userIDs, format: 'armored' });
    expect(await refusal(`${revoked.publicKey}\n${second.publicKey}`)).toEqual([`pgp_key: ${MESSAGES.pgpKey} (the text holds 2 key blocks; give exactly one)`]);

    const [one, two] = await Promise.all([generateKey({ type: 'ecc', userIDs, format: 'object' }), generateKey({ type: 'ecc', userIDs, format: 'object' })]);
    const bothInOneBlock = armor(enums.armor.publicKey, new Uint8Array([...one.publicKey.write(), ...two.publicKey.write()]));
    expect(await refusal(bothInOneBlock)).toEqual([`pgp_key: ${MESSAGES.pgpKey} (the block holds 2 keys; give exactly one)`]);

    const signOnly = await generateKey({ type: 'ecc', userIDs, subkeys: [], format: 'armored' });
    expect(await refusal(signOnly.publicKey)).toEqual([`pgp_key: ${MESSAGES.pgpKey} (the key has no valid encryption key)`]);
  });

  it('refuses a damaged key, whatever byte is damaged, with a path: message line and never another error', async () => {
    const { publicKey } = await generateKey({ type: 'ecc', userIDs, format: 'object' });
    const bytes = publicKey.write();
    for (let index = 0; index < bytes.length; index += 1) {
      const damaged = new Uint8Array(bytes);
      damaged[index] = (damaged[index] as number) ^ 0x55;
      const lines = await refusal(armor(enums.armor.publicKey, damaged));
      expect(lines[0], `byte ${index}`).toMatch(new RegExp(`^pgp_key: ${MESSAGES.pgpKey}`));
    }
  });
});
