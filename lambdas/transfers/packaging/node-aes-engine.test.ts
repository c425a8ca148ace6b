import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
// zip.js's own JavaScript engine, the reference the Node engine must match byte for byte.
// @ts-expect-error -- zip.js ships no type declarations for its internal modules; the one function used is typed below.
import * as zipJsCodec from '../../../node_modules/@zip.js/zip.js/lib/core/streams/codecs/aes-hmac-sha1.js';
import { createNodeAesEngine, type AesEngine } from './node-aes-engine.ts';

const { createEngine: createZipJsEngine } = zipJsCodec as { createEngine(key: Uint8Array, authenticationKey: Uint8Array): AesEngine };

/**
 * The Node engine against zip.js's: same keys, same data cut into the same chunks (whole blocks, then a short tail, as
 * zip.js's AES streams hand them over), both ways. Any difference in the counter (start, byte order, a tail's
 * keystream) or in what the HMAC covers shows up as different bytes or a different digest.
 */
const BLOCK = 16;

/** Random chunk lengths summing to `total`: whole blocks (some over the engine's 64 KiB slice), the last one any length. */
function chunking(total: number): number[] {
  const lengths: number[] = [];
  let left = total;
  while (left > 0) {
    const blocks = randomInt(0, 2) === 0 ? randomInt(1, 8) : randomInt(1, 9000);
    const length = Math.min(left, blocks * BLOCK);
    lengths.push(left - length < BLOCK && left - length > 0 ? left : length);
    left -= lengths.at(-1)!;
  }
  return lengths;
}

function run(engine: AesEngine, data: Uint8Array, lengths: readonly number[], decrypt: boolean): { output: Uint8Array; digest: Uint8Array } {
  const output = new Uint8Array(data);
  let offset = 0;
  for (const length of lengths) {
    // A fresh copy per call, as zip.js makes, so an engine that kept a reference to its input would be caught.
    const chunk = output.slice(offset, offset + length);
    engine.process(chunk, decrypt);
    output.set(chunk, offset);
    offset += length;
  }
  return { output, digest: new Uint8Array(engine.digest()) };
}

describe('the Node AES engine for zip.js', () => {
  for (const keyLength of [16, 24, 32]) {
    it(`enciphers and deciphers exactly as zip.js's own engine, AES-${keyLength * 8}, random keys and chunkings`, () => {
      for (let round = 0; round < 12; round++) {
        const key = randomBytes(keyLength);
        const authenticationKey = randomBytes(keyLength);
        const total = round === 0 ? 0 : randomInt(1, 300_000);
        const plain = new Uint8Array(randomBytes(total));
        const lengths = chunking(total);

        const ours = run(createNodeAesEngine(key, authenticationKey), plain, lengths, false);
        const theirs = run(createZipJsEngine(key, authenticationKey), plain, lengths, false);
        expect(Buffer.from(ours.output).equals(Buffer.from(theirs.output))).toBe(true);
        expect(Buffer.from(ours.digest).toString('hex')).toBe(Buffer.from(theirs.digest).toString('hex'));
        expect(ours.digest).toHaveLength(20);
        if (total > 0) expect(Buffer.from(ours.output).equals(Buffer.from(plain))).toBe(false);

        // Deciphering the ciphertext in other chunks gives the plaintext back and the same HMAC (it covers the ciphertext).
        const otherLengths = chunking(total);
        const back = run(createNodeAesEngine(key, authenticationKey), theirs.output, otherLengths, true);
        const backTheirs = run(createZipJsEngine(key, authenticationKey), ours.output, otherLengths, true);
        expect(Buffer.from(back.output).equals(Buffer.from(plain))).toBe(true);
        expect(Buffer.from(backTheirs.output).equals(Buffer.from(plain))).toBe(true);
        expect(Buffer.from(back.digest).toString('hex')).toBe(Buffer.from(theirs.digest).toString('hex'));
      }
    });
  }

  it('gives a different digest under another authentication key, and other bytes under another key', () => {
    const key = randomBytes(32);
    const authenticationKey = randomBytes(32);
    const plain = new Uint8Array(randomBytes(4096));
    const base = run(createNodeAesEngine(key, authenticationKey), plain, [4096], false);
    const otherMac = run(createNodeAesEngine(key, randomBytes(32)), plain, [4096], false);
    const otherKey = run(createNodeAesEngine(randomBytes(32), authenticationKey), plain, [4096], false);
    expect(Buffer.from(otherMac.output).equals(Buffer.from(base.output))).toBe(true);
    expect(Buffer.from(otherMac.digest).equals(Buffer.from(base.digest))).toBe(false);
    expect(Buffer.from(otherKey.output).equals(Buffer.from(base.output))).toBe(false);
  });
});
