import { createHash } from 'node:crypto';

/**
 * SHA-256 of a payload's plaintext as the decryption produces it (the `checksum` of DESIGN.md §7).
 *
 * The stream hands each decrypted group of parts to `update` and gets back, in order, the parts it may pass on. The
 * inline hasher hashes at once; the worker hasher (`hash-worker.ts`) copies the bytes for another thread to hash,
 * so AES on this thread and SHA-256 on the other run at the same time. The digest is only known at `finish`, so the
 * stream still holds its last bytes until then. A hasher serves one stream and is used once.
 */
export interface PlaintextHasher {
  /** Takes `parts` and answers those the caller may pass on now (all of them, for both hashers here). */
  update(parts: Buffer[]): Promise<Buffer[]>;
  /** After the last update: the parts not answered yet and the hex digest of everything. */
  finish(): Promise<{ parts: Buffer[]; digest: string }>;
  /** Drops the work (the stream failed or was destroyed); never throws. */
  abort(): void;
}

/** SHA-256 on the calling thread: best for small payloads, where handing work to a thread costs more than it saves. */
export function inlineHasher(): PlaintextHasher {
  const hash = createHash('sha256');
  return {
    async update(parts) {
      for (const part of parts) hash.update(part);
      return parts;
    },
    async finish() {
      return { parts: [], digest: hash.digest('hex') };
    },
    abort() {},
  };
}
