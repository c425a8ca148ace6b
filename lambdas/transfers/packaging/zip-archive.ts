import { ZipWriter } from '@zip.js/zip.js/lib/zip-core-custom.js';
import { hashedStream, toByteStream } from './byte-streams.ts';
import { useNodeAesEngine } from './node-aes-engine.ts';
import type { EntryDigest, PackagingEntry } from './types.ts';

// zip.js's own AES and HMAC are JavaScript and were most of the packaging's time; OpenSSL does the same bytes faster.
useNodeAesEngine();

/** WinZip AES with a 256-bit key: what 7-Zip calls AES-256 (zip.js strength 1, 2, 3 = AES-128, 192, 256). */
const AES_256 = 3;

/**
 * Recordings in these formats are compressed already: deflate would spend most of the packaging time to save nothing,
 * so they are stored (as `zip -n` does). Everything else (message text, JSON, logs) is deflated.
 */
const ALREADY_COMPRESSED = new Set(['3gp', 'aac', 'amr', 'avi', 'gif', 'gz', 'heic', 'heif', 'jpeg', 'jpg', 'm4a', 'm4v', 'mkv', 'mov', 'mp3', 'mp4', 'oga', 'ogg', 'opus', 'pgp', 'png', 'webm', 'webp', 'zip']);

/**
 * zip.js level: 0 stores, 6 (zlib's default, what CompressionStream does) deflates. Only an entry known to hold bytes
 * is stored: zip.js writes an empty stored AES entry that 7-Zip rejects ("Headers Error"), while an empty deflated
 * one opens everywhere, so an empty entry, or one of unknown size that may turn out empty, is deflated.
 */
export const zipLevelFor = (name: string, size: number | undefined): 0 | 6 => {
  const extension = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  return size !== undefined && size > 0 && extension !== undefined && ALREADY_COMPRESSED.has(extension) ? 0 : 6;
};

/**
 * Zips entries into one stream, written as it is read: zip.js waits on each write until the consumer has taken the
 * previous bytes, and entries are added one after another (zip.js would buffer entries added concurrently), so at
 * most a chunk or two of one entry is in memory. Each entry is deflated with Node's own CompressionStream (no worker,
 * no WebAssembly), or stored when already compressed, and, with a password, encrypted with AES-256 (by OpenSSL through
 * Node's crypto: node-aes-engine.ts). zip.js switches to Zip64 by itself wherever it is needed: an entry of unknown or
 * 4 GiB+ size, an offset past 4 GiB, 65,535+ entries.
 *
 * `entries` settles with each entry's plaintext digest once the archive is complete; if anything fails, the stream
 * errors with the cause and `entries` rejects with it.
 */
export function zipArchive(
  entries: AsyncIterable<PackagingEntry>,
  options: { password?: string },
): { stream: ReadableStream<Uint8Array>; entries: Promise<EntryDigest[]> } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 1 }, { highWaterMark: 0 });
  const output = writable.getWriter();
  // zip.js gets its own sink so that it never holds the lock on `writable`: on failure we abort `output` ourselves.
  const sink = new WritableStream<Uint8Array>({ write: (chunk) => output.write(chunk) });
  let abortCurrent: ((reason: unknown) => Promise<void>) | undefined;

  const done = (async () => {
    const zip = new ZipWriter(sink, {
      useWebWorkers: false,
      ...(options.password === undefined ? {} : { password: options.password, encryptionStrength: AES_256 }),
    });
    const digests: EntryDigest[] = [];
    for await (const entry of entries) {
      const { stream, tally, abort } = hashedStream(toByteStream(await entry.open(), entry.name), entry.name, entry.size);
      abortCurrent = abort;
      await zip.add(entry.name, stream, {
        lastModDate: entry.modifiedAt,
        level: zipLevelFor(entry.name, entry.size),
        ...(entry.size === undefined ? {} : { uncompressedSize: entry.size }),
      });
      abortCurrent = undefined;
      digests.push({ name: entry.name, ...(await tally) });
    }
    await zip.close();
    await output.close();
    return digests;
  })();

  done.catch(async (error: unknown) => {
    await abortCurrent?.(error);
    await output.abort(error).catch(() => undefined);
  });
  return { stream: readable, entries: done };
}
