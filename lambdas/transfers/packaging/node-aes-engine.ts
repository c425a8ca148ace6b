import { createCipheriv, createHmac } from 'node:crypto';
// The same module instance ZipWriter encrypts through (zip-core-custom.js imports this file): replacing its engine here
// replaces it for every AES entry zip.js writes or reads in this process. The package's exports map has no entry for
// it, so it is reached by its file path; zip.js's own WebAssembly and worker builds install their engines the same way.
// @ts-expect-error -- zip.js ships no type declarations for its internal modules; the one function used is typed below.
import * as aesCryptoStream from '../../../node_modules/@zip.js/zip.js/lib/core/streams/aes-crypto-stream.js';

const BLOCK = 16;
/** Counter blocks enciphered per call to OpenSSL: 64 KiB of keystream, made once per chunk slice and reused. */
const KEYSTREAM_BLOCKS = 4096;

/** What zip.js's AES streams call for each entry (see zip.js's aes-hmac-sha1.js for its own JavaScript one). */
export interface AesEngine {
  /** En- or deciphers `data` in place; the HMAC covers the ciphertext (the input when deciphering, the output when enciphering). */
  process(data: Uint8Array, decrypt: boolean): void;
  /** The full HMAC-SHA1 (20 bytes) of all ciphertext so far; zip.js keeps the first 10 as WinZip's authentication code. */
  digest(): Uint8Array;
}

/**
 * WinZip AES with OpenSSL through Node's crypto instead of zip.js's JavaScript AES and SHA-1, the packaging's main cost.
 * WinZip's CTR counter is a 128-bit little-endian number starting at 1, and OpenSSL's aes-*-ctr counts big-endian, so
 * the counter blocks are written here and enciphered with AES-ECB, many at a time, then XORed into the data. zip.js
 * hands whole blocks until the entry's last call; a tail shorter than a block uses the start of the next counter's
 * keystream, as zip.js does. Memory is one 64 KiB keystream buffer per entry being written.
 */
export function createNodeAesEngine(key: Uint8Array, authenticationKey: Uint8Array): AesEngine {
  const cipher = createCipheriv(`aes-${key.length * 8}-ecb`, key, null).setAutoPadding(false);
  const hmac = createHmac('sha1', authenticationKey);
  const counters = Buffer.alloc(KEYSTREAM_BLOCKS * BLOCK);
  // The little-endian counter as four 32-bit words, low word first; the last block used so far (0 before the first).
  const counter = new Uint32Array(4);

  const keystreamFor = (blocks: number): Buffer => {
    for (let block = 0; block < blocks; block++) {
      if ((counter[0] = (counter[0]! + 1) >>> 0) === 0 && (counter[1] = (counter[1]! + 1) >>> 0) === 0 && (counter[2] = (counter[2]! + 1) >>> 0) === 0) {
        counter[3] = (counter[3]! + 1) >>> 0;
      }
      const at = block * BLOCK;
      counters.writeUInt32LE(counter[0]!, at);
      counters.writeUInt32LE(counter[1]!, at + 4);
      counters.writeUInt32LE(counter[2]!, at + 8);
      counters.writeUInt32LE(counter[3]!, at + 12);
    }
    return cipher.update(counters.subarray(0, blocks * BLOCK));
  };

  const xorKeystream = (data: Uint8Array): void => {
    for (let offset = 0; offset < data.length; offset += KEYSTREAM_BLOCKS * BLOCK) {
      const slice = data.subarray(offset, offset + KEYSTREAM_BLOCKS * BLOCK);
      const keystream = keystreamFor(Math.ceil(slice.length / BLOCK));
      const words = slice.length >>> 2;
      // Word-wise XOR where the slice is 4-byte aligned (zip.js's buffers are fresh, so nearly always), then the rest.
      let done = 0;
      if ((slice.byteOffset & 3) === 0 && (keystream.byteOffset & 3) === 0) {
        const data32 = new Uint32Array(slice.buffer, slice.byteOffset, words);
        const keystream32 = new Uint32Array(keystream.buffer, keystream.byteOffset, words);
        for (let index = 0; index < words; index++) data32[index]! ^= keystream32[index]!;
        done = words * 4;
      }
      for (let index = done; index < slice.length; index++) slice[index]! ^= keystream[index]!;
    }
  };

  return {
    process(data, decrypt) {
      if (decrypt) hmac.update(data);
      xorKeystream(data);
      if (!decrypt) hmac.update(data);
    },
    digest() {
      return new Uint8Array(hmac.digest());
    },
  };
}

const { setAESEngine } = aesCryptoStream as { setAESEngine(createEngine: (key: Uint8Array, authenticationKey: Uint8Array) => AesEngine): void };
let installed = false;

/** Makes zip.js use the Node engine for WinZip AES from now on in this process (once is enough; idempotent). */
export function useNodeAesEngine(): void {
  if (installed) return;
  setAESEngine(createNodeAesEngine);
  installed = true;
}
