import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLocalKeyService } from '../core/adapters/local/local-key-service.ts';
import { deviceKeysOf } from './device-keys.ts';
import { createMemoryTable } from '../core/testing/memory-table.ts';
import { decryptContent, encryptContent, openPayloadMeta, PayloadCryptoError, sealPayload } from './payload-crypto.ts';

const deps = { table: createMemoryTable([]), keys: createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'payload-crypto-')) }) };

/** Feeds `data` in chunks of the given sizes (cycled) and collects the output, or the error. */
async function decrypt(data: Buffer, dek: Buffer, iv: Buffer, checksum: string, sizes: number[] = [65536]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let at = 0, n = 0; at < data.length; n += 1) {
    const size = Math.max(1, sizes[n % sizes.length] as number);
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), decryptContent(dek, iv, checksum), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

describe('payload crypto', () => {
  it('opens meta and content a device sealed, whatever the chunking', async () => {
    const { kek, kekId } = await deviceKeysOf(deps, 'crypto');
    const content = randomBytes(5000);
    const sealed = sealPayload({ kek, client: 'crypto', keyId: kekId, content, meta: { payload_time: '2024-01-01T00:00:00Z' } });
    const item = { ...sealed.registration, content_iv: sealed.registration.iv, sealed_meta: sealed.registration.meta };
    expect(await openPayloadMeta(deps, 'crypto', item)).toEqual({ payload_time: '2024-01-01T00:00:00Z' });
    await expect(openPayloadMeta(deps, 'other', item)).rejects.toThrow(PayloadCryptoError);
    const iv = Buffer.from(sealed.registration.iv, 'base64');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 }), async (sizes) => {
        expect((await decrypt(sealed.ciphertext, sealed.dek, iv, sealed.registration.checksum, sizes)).equals(content)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a flipped byte, a wrong key, a wrong checksum, a truncated object', async () => {
    const dek = randomBytes(32);
    const iv = randomBytes(12);
    const content = randomBytes(300);
    const checksum = createHash('sha256').update(content).digest('hex');
    const out: Buffer[] = [];
    await pipeline(Readable.from([content]), encryptContent(dek, iv), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    const ciphertext = Buffer.concat(out);
    expect((await decrypt(ciphertext, dek, iv, checksum)).equals(content)).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.nat(ciphertext.length - 1), async (at) => {
        const bad = Buffer.from(ciphertext);
        bad[at] = (bad[at] as number) ^ 1;
        await expect(decrypt(bad, dek, iv, checksum)).rejects.toMatchObject({ failure: 'content' });
      }),
      { numRuns: 30 },
    );
    await expect(decrypt(ciphertext, randomBytes(32), iv, checksum)).rejects.toMatchObject({ failure: 'content' });
    await expect(decrypt(ciphertext, dek, iv, '0'.repeat(64))).rejects.toMatchObject({ failure: 'checksum' });
    await expect(decrypt(ciphertext.subarray(0, 10), dek, iv, checksum)).rejects.toMatchObject({ failure: 'content' });
  });
});
