import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';

/** What the screens show of a PGP public key: the fingerprint the receiver compares with `gpg --fingerprint`. */
export interface PgpKeyInfo {
  /** Upper-case hex in groups of four, as gpg prints it. */
  fingerprint: string;
  userId?: string;
  algorithm: string;
  expiresAt?: Date;
}

/** "ABCD1234…" in groups of four, with a double space in the middle as gpg prints a v4 fingerprint. */
export function groupFingerprint(hex: string): string {
  const groups = hex.toUpperCase().match(/.{1,4}/g) ?? [];
  if (groups.length !== 10) return groups.join(' ');
  return `${groups.slice(0, 5).join(' ')}  ${groups.slice(5).join(' ')}`;
}

/**
 * Reads an armoured public key in the browser. openpgp (about 350 KB) is loaded only here, the first time a key is
 * shown, so no other screen pays for it. The server checks the key again (expiry, revocation, encryption subkey).
 */
export async function readPgpKeyInfo(armored: string): Promise<PgpKeyInfo> {
  const { readKey } = await import('openpgp');
  const key = await readKey({ armoredKey: armored.trim() });
  const info = key.getAlgorithmInfo();
  const size = info.bits !== undefined ? String(info.bits) : (info.curve ?? '');
  const expiry = await key.getExpirationTime().catch(() => null);
  const userId = key.getUserIDs()[0];
  return {
    fingerprint: groupFingerprint(key.getFingerprint()),
    algorithm: size === '' ? info.algorithm : `${info.algorithm} ${size}`,
    ...(userId === undefined ? {} : { userId }),
    ...(expiry instanceof Date ? { expiresAt: expiry } : {}),
  };
}

const looksLikeKey = (text: string) => text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----') && text.includes('-----END PGP PUBLIC KEY BLOCK-----');

/** The key's fingerprint while it is typed or pasted (read 300 ms after the last change); nothing for no key. */
export function usePgpKeyInfo(armored: string) {
  const [settled] = useDebouncedValue(armored.trim(), 300);
  const enabled = looksLikeKey(settled);
  const query = useQuery({
    queryKey: ['pgp-key-info', settled],
    queryFn: () => readPgpKeyInfo(settled),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
  return { enabled, ...query };
}
