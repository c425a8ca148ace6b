import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HashWorkerError, HashWorkerPool } from './hash-worker.ts';
import type { PlaintextHasher } from './plaintext-hasher.ts';

const pool = new HashWorkerPool();
afterAll(() => pool.terminate());

/** Feeds `data` to `hasher` in parts of the given sizes (cycled) and collects what it hands back, in order. */
async function run(hasher: PlaintextHasher, data: Buffer, sizes: number[]): Promise<{ back: Buffer; digest: string }> {
  const back: Buffer[] = [];
  for (let at = 0, n = 0; at < data.length; n += 1) {
    const size = Math.max(1, sizes[n % sizes.length] as number);
    // Copies, as a decipher's output would be: the caller gives its parts up.
    back.push(...(await hasher.update([Buffer.from(data.subarray(at, at + size))])));
    at += size;
  }
  const { parts, digest } = await hasher.finish();
  return { back: Buffer.concat([...back, ...parts]), digest };
}

describe('SHA-256 worker', () => {
  it('gives the digest createHash gives, and every byte back in order, whatever the chunking', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const expected = createHash('sha256').update(data).digest('hex');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1_000, max: 400_000 }), { minLength: 1, maxLength: 4 }), async (sizes) => {
        const { back, digest } = await run(pool.hasher(), data, sizes);
        expect(digest).toBe(expected);
        expect(back.equals(data)).toBe(true);
      }),
      { numRuns: 8 },
    );
    expect((await pool.hasher().finish()).digest).toBe(createHash('sha256').digest('hex'));
    // Tiny parts (a network stream's odd sizes) are copied into their own memory, and still come back in order.
    const small = randomBytes(5000);
    const tiny = await run(pool.hasher(), small, [1, 7, 300]);
    expect(tiny).toEqual({ back: small, digest: createHash('sha256').update(small).digest('hex') });
  });

  it('runs jobs side by side without mixing them', async () => {
    const inputs = [randomBytes(2_000_000), randomBytes(1_500_000), randomBytes(10)];
    const results = await Promise.all(inputs.map((input) => run(pool.hasher(), input, [65_536])));
    expect(results.map((result) => result.digest)).toEqual(inputs.map((input) => createHash('sha256').update(input).digest('hex')));
  });

  it('never detaches memory it was not given whole: views and pooled buffers are copied', async () => {
    const big = randomBytes(2_000_000);
    const small = Buffer.from('pooled'); // from Node's shared small-buffer pool
    const hasher = pool.hasher();
    const back = await hasher.update([big.subarray(10, 1_500_000), small]);
    const { parts, digest } = await hasher.finish();
    expect(big.length).toBe(2_000_000);
    expect(small.toString()).toBe('pooled');
    expect(Buffer.concat([...back, ...parts]).equals(Buffer.concat([big.subarray(10, 1_500_000), small]))).toBe(true);
    expect(digest).toBe(createHash('sha256').update(big.subarray(10, 1_500_000)).update(small).digest('hex'));
  });

  it('fails cleanly when the worker dies mid-job, and the next job starts a new worker', async () => {
    const own = new HashWorkerPool();
    const hasher = own.hasher();
    await hasher.update([randomBytes(2_000_000)]);
    await own.terminate();
    const failed = (async () => {
      for (let round = 0; round < 10; round += 1) await hasher.update([randomBytes(1_100_000)]);
      return hasher.finish();
    })();
    await expect(failed).rejects.toBeInstanceOf(HashWorkerError);
    const data = randomBytes(1_200_000);
    expect((await run(own.hasher(), data, [100_000])).digest).toBe(createHash('sha256').update(data).digest('hex'));
    await own.terminate();
  });

  it('an aborted job is forgotten; using it afterwards is an error, not a hang', async () => {
    const hasher = pool.hasher();
    await hasher.update([randomBytes(1_100_000)]);
    hasher.abort();
    hasher.abort();
    await expect(hasher.finish()).rejects.toBeInstanceOf(HashWorkerError);
  });
});
