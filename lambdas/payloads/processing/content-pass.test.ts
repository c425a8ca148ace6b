import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createEicarScanner } from '../../core/adapters/local/eicar-scanner.ts';
import type { BlobStore } from '../../core/ports/blob-store.ts';
import type { MalwareScanner, ScanVerdict } from '../../core/ports/malware-scanner.ts';
import { passContent, WORKER_HASH_MIN_BYTES } from './content-pass.ts';
import { encryptContent } from '../../device-crypto/public.ts';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** A raw object in memory, read in 64 KiB chunks; counts the reads of it, keeps what was put. */
function blobs(raw: Buffer) {
  const state = { rawReads: 0, processed: undefined as Buffer | undefined };
  const store = {
    async get(bucket: string) {
      if (bucket !== 'raw') return undefined;
      state.rawReads += 1;
      const chunks = Array.from({ length: Math.ceil(raw.length / 65_536) }, (_, n) => raw.subarray(n * 65_536, (n + 1) * 65_536));
      return { contentLength: raw.length, contentType: undefined, etag: undefined, metadata: {}, lastModified: undefined, body: Readable.from(chunks) };
    },
    async put(_bucket: string, _key: string, body: Readable | Uint8Array, options?: { contentLength?: number }) {
      const parts: Buffer[] = [];
      for await (const chunk of body as Readable) parts.push(chunk as Buffer);
      const data = Buffer.concat(parts);
      if (data.length !== options?.contentLength) throw new Error('short body: the PUT does not complete');
      state.processed = data;
      return {};
    },
  } as unknown as BlobStore;
  return { store, state };
}

async function seal(content: Buffer) {
  const dek = randomBytes(32);
  const iv = randomBytes(12);
  const parts: Buffer[] = [];
  for await (const chunk of Readable.from([content]).pipe(encryptContent(dek, iv))) parts.push(chunk as Buffer);
  return { raw: Buffer.concat(parts), input: { objectKey: 'c/payloads/p', dek, iv, checksum: createHash('sha256').update(content).digest('hex'), lock: undefined } };
}

/** A scanner that answers without reading the body, like the GuardDuty adapter reading its tag. */
const tagScanner = (verdict: ScanVerdict): MalwareScanner => ({ inspect: async () => verdict });

describe('one pass over the content', () => {
  it('decrypts once: scan, checksum and processed object from one read of the raw object (inline and worker hashing)', async () => {
    for (const size of [5000, WORKER_HASH_MIN_BYTES + 123_457]) {
      const content = randomBytes(size);
      const { raw, input } = await seal(content);
      const { store, state } = blobs(raw);
      expect(await passContent({ blobs: store, scanner: createEicarScanner() }, input)).toEqual({ outcome: 'written' });
      expect(state.rawReads).toBe(1);
      expect(state.processed?.equals(content)).toBe(true);
    }
  });

  it('an EICAR body is Quarantined and never written, wherever the signature sits', async () => {
    for (const content of [Buffer.from(`${EICAR} head`), Buffer.concat([randomBytes(WORKER_HASH_MIN_BYTES), Buffer.from(EICAR)])]) {
      const { raw, input } = await seal(content);
      const { store, state } = blobs(raw);
      expect(await passContent({ blobs: store, scanner: createEicarScanner() }, input)).toEqual({ outcome: 'infected', signature: 'EICAR-Test-File' });
      expect(state.processed).toBeUndefined();
    }
  });

  it('a tampered object or a wrong checksum fails and is never written (inline and worker hashing)', async () => {
    for (const size of [3000, WORKER_HASH_MIN_BYTES + 1]) {
      const { raw, input } = await seal(randomBytes(size));
      const tampered = Buffer.from(raw);
      tampered[size - 5] = (tampered[size - 5] as number) ^ 1;
      const first = blobs(tampered);
      expect(await passContent({ blobs: first.store, scanner: createEicarScanner() }, input)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('tag') });
      const second = blobs(raw);
      expect(await passContent({ blobs: second.store, scanner: createEicarScanner() }, { ...input, checksum: '0'.repeat(64) })).toMatchObject({
        outcome: 'failed',
        reason: expect.stringContaining('checksum'),
      });
      expect([first.state.processed, second.state.processed]).toEqual([undefined, undefined]);
    }
  });

  it('a scanner that never reads: clean writes, pending and a hit stop the write', async () => {
    const content = randomBytes(200_000);
    const { raw, input } = await seal(content);
    const clean = blobs(raw);
    expect(await passContent({ blobs: clean.store, scanner: tagScanner({ verdict: 'clean' }) }, input)).toEqual({ outcome: 'written' });
    expect(clean.state.processed?.equals(content)).toBe(true);
    const pending = blobs(raw);
    expect(await passContent({ blobs: pending.store, scanner: tagScanner({ verdict: 'pending' }) }, input)).toEqual({ outcome: 'scan-pending' });
    const hit = blobs(raw);
    expect(await passContent({ blobs: hit.store, scanner: tagScanner({ verdict: 'infected', signature: 'x' }) }, input)).toEqual({ outcome: 'infected', signature: 'x' });
    expect([pending.state.processed, hit.state.processed]).toEqual([undefined, undefined]);
  });

  it('a scanner that starts reading late still sees every byte', async () => {
    const { raw, input } = await seal(Buffer.concat([randomBytes(300_000), Buffer.from(EICAR)]));
    const eicar = createEicarScanner();
    const late: MalwareScanner = {
      inspect: async (object) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return eicar.inspect(object);
      },
    };
    expect(await passContent({ blobs: blobs(raw).store, scanner: late }, input)).toMatchObject({ outcome: 'infected' });
  });

  it('a missing or too short object fails; a scanner error is thrown (processing retries)', async () => {
    const { raw, input } = await seal(randomBytes(100));
    const none = { get: async () => undefined } as unknown as BlobStore;
    expect(await passContent({ blobs: none, scanner: createEicarScanner() }, input)).toEqual({ outcome: 'failed', reason: 'content: Object missing' });
    expect(await passContent({ blobs: blobs(raw.subarray(0, 10)).store, scanner: createEicarScanner() }, input)).toMatchObject({ outcome: 'failed' });
    const broken: MalwareScanner = { inspect: async () => Promise.reject(new Error('scanner down')) };
    await expect(passContent({ blobs: blobs(raw).store, scanner: broken }, input)).rejects.toThrow('scanner down');
  });
});
