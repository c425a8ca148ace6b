import { randomFillSync } from 'node:crypto';
import { generateKey } from 'openpgp';
import { expect, it } from 'vitest';
import { packageTransfer } from './packager.ts';
import type { PackagingEntry } from './types.ts';

const MIB = 1024 * 1024;
const TOTAL = 256 * MIB;
const CHUNK = 64 * 1024;
/** How far the source may run ahead of the consumer: a few chunks in each stage (zip, deflate, AES, PGP), not the file. */
const IN_FLIGHT_LIMIT = 16 * MIB;

/**
 * 256 MiB of generated (incompressible) bytes packaged as ZippedWithPassword + PGP, read by a consumer that pauses.
 * The output is about as large as the input, so "bytes pulled from the source minus bytes the consumer has read" is
 * what the pipeline holds: it must stay within a few MiB at every read, and stay put while the consumer pauses
 * (backpressure reaches the source). Peak RSS growth is printed; it is asserted only to be far below the input size.
 */
it('packages 256 MiB as ZippedWithPassword + PGP holding only a few MiB at a time', async () => {
  const { publicKey } = await generateKey({ type: 'ecc', userIDs: [{ name: 'Receiver' }], format: 'armored' });
  let pulled = 0;
  const generated: PackagingEntry = {
    name: 'large/generated.bin',
    size: TOTAL,
    modifiedAt: new Date(),
    open: () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (pulled >= TOTAL) return controller.close();
            controller.enqueue(randomFillSync(new Uint8Array(CHUNK)));
            pulled += CHUNK;
          },
        },
        { highWaterMark: 0 },
      ),
  };

  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let consumed = 0;
  let maxInFlight = 0;
  const packaging = await packageTransfer([generated], { format: 'ZippedWithPassword', zipPassword: 'secret', pgpPublicKey: publicKey });
  for await (const output of packaging.outputs) {
    const reader = output.stream.getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      consumed += next.value.byteLength;
      maxInFlight = Math.max(maxInFlight, pulled - consumed);
      peak = Math.max(peak, process.memoryUsage.rss());
      if (consumed > 4 * MIB && consumed - next.value.byteLength <= 4 * MIB) {
        // The consumer stops reading for a while: the source must stop too.
        const pulledAtPause = pulled;
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(pulled - pulledAtPause).toBeLessThan(IN_FLIGHT_LIMIT);
      }
    }
    const digest = await output.digest;
    expect(digest.entries).toEqual([{ name: 'large/generated.bin', size: TOTAL, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(digest.size).toBe(consumed);
  }
  const growthMiB = (peak - baseline) / MIB;
  console.log(`packaging memory: ${TOTAL / MIB} MiB in, ${(consumed / MIB).toFixed(1)} MiB out; at most ${(maxInFlight / MIB).toFixed(2)} MiB in flight; RSS ${(baseline / MIB).toFixed(0)} → peak ${(peak / MIB).toFixed(0)} MiB (+${growthMiB.toFixed(0)} MiB)`);
  expect(pulled).toBe(TOTAL);
  expect(consumed).toBeGreaterThan(TOTAL);
  expect(maxInFlight).toBeLessThan(IN_FLIGHT_LIMIT);
  expect(growthMiB).toBeLessThan(TOTAL / MIB / 2);
}, 300_000);
