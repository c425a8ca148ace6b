import { readKeys, type Key } from 'openpgp';
import { MESSAGES } from '#shared/contract/messages.ts';
import { PackagingError } from './errors.ts';

/** What a transfer config's public key is, as the screens and the manifest show it. */
export interface PgpKeyInfo {
  /** Upper-case hex, as `gpg --fingerprint` prints it without spaces. */
  fingerprint: string;
  /** e.g. `rsaEncryptSign 3072`, `eddsaLegacy ed25519Legacy` (the primary key's algorithm, then bits or curve). */
  algorithm: string;
  /** When the key stops being usable; undefined when it never expires. */
  expiresAt?: Date;
  /** The primary key's first user id, e.g. `Receiver <ops@example.com>`, when it has one. */
  userId?: string;
}

/** A parsed key, ready to encrypt to. */
export interface ParsedPgpKey extends PgpKeyInfo {
  key: Key;
}

const problem = (path: string, detail?: string): PackagingError =>
  new PackagingError([`${path}: ${MESSAGES.pgpKey}${detail === undefined ? '' : ` (${detail})`}`]);

/**
 * Parses an armoured public key block and checks it can be encrypted to now: exactly one key, public (a private key
 * pasted by mistake is refused and never echoed), not expired or revoked, with a usable encryption key. Every
 * refusal is one `path: message` line that starts with the contract's message for an invalid PGP key.
 */
export async function parsePgpPublicKey(armoredKey: string, path = 'pgp_key', now = new Date()): Promise<ParsedPgpKey> {
  // openpgp reads only the first armoured block; a second one pasted after it would be ignored silently.
  const blocks = armoredKey.match(/-----BEGIN PGP [A-Z ]*KEY BLOCK-----/g)?.length ?? 0;
  if (blocks > 1) throw problem(path, `the text holds ${blocks} key blocks; give exactly one`);
  let keys: Key[];
  try {
    keys = await readKeys({ armoredKeys: armoredKey });
  } catch {
    throw problem(path);
  }
  if (keys.length !== 1) throw problem(path, `the block holds ${keys.length} keys; give exactly one`);
  const key = keys[0] as Key;
  if (key.isPrivate()) throw problem(path, 'this is a private key; give the public key only');
  let expiresAt: Date | undefined;
  try {
    expiresAt = await usableUntil(key, path, now);
  } catch (error) {
    // A key that parses yet breaks openpgp's checks (no valid self-signature, a damaged packet) is refused as invalid.
    throw error instanceof PackagingError ? error : problem(path);
  }
  const info = key.getAlgorithmInfo();
  const size = info.bits !== undefined ? String(info.bits) : (info.curve ?? '');
  const userId = key.getUserIDs()[0];
  return {
    key,
    fingerprint: key.getFingerprint().toUpperCase(),
    algorithm: size === '' ? info.algorithm : `${info.algorithm} ${size}`,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(userId === undefined ? {} : { userId }),
  };
}

/** When the key stops being usable (undefined: never), after checking it can be encrypted to at `now`. */
async function usableUntil(key: Key, path: string, now: Date): Promise<Date | undefined> {
  const expiry = await key.getExpirationTime();
  const expiresAt = expiry instanceof Date ? expiry : undefined;
  if (expiresAt !== undefined && expiresAt.getTime() <= now.getTime()) throw problem(path, `the key expired on ${expiresAt.toISOString()}`);
  if (await key.isRevoked(undefined, undefined, now)) throw problem(path, 'the key is revoked');
  try {
    await key.getEncryptionKey(undefined, now);
  } catch {
    throw problem(path, 'the key has no valid encryption key');
  }
  return expiresAt;
}
