import { createHash } from 'node:crypto';
import { PackagingError } from './errors.ts';
import type { ByteSource } from './types.ts';

/**
 * A pull-based web stream over any byte source. Nothing is read ahead (high-water mark 0): a chunk is pulled from the
 * source only when the consumer asks for one, so backpressure reaches the recording's own stream.
 */
export function toByteStream(source: ByteSource, label: string): ReadableStream<Uint8Array> {
  if (source instanceof ReadableStream) return source;
  if (typeof (source as Partial<AsyncIterable<Uint8Array>>)?.[Symbol.asyncIterator] !== 'function') {
    throw new PackagingError([`${label}: open() must give a stream or an async iterable of bytes`]);
  }
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel(reason) {
        await iterator.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Bytes seen and their SHA-256, known once the stream has ended. */
export interface Tally {
  size: number;
  sha256: string;
}

/**
 * The same bytes as `source`, counted and hashed as they are read. Pull-based like `toByteStream`, so it adds no
 * buffer. `tally` settles when the stream ends and rejects if it fails or is cancelled. If `expectedSize` is given
 * and the count differs, the stream errors instead of ending, so a short or long source is never delivered as whole.
 * A chunk that is not bytes (a Node stream set to a text encoding) errors the stream too. `abort` releases the source
 * when whoever reads the stream has given up on it without cancelling it.
 */
export function hashedStream(
  source: ReadableStream<Uint8Array>,
  label: string,
  expectedSize?: number,
): { stream: ReadableStream<Uint8Array>; tally: Promise<Tally>; abort: (reason: unknown) => Promise<void> } {
  const hash = createHash('sha256');
  const reader = source.getReader();
  let size = 0;
  let settle!: (tally: Tally) => void;
  let fail!: (reason: unknown) => void;
  const tally = new Promise<Tally>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Whoever reads the stream sees the same failure; an unobserved tally must not also surface as an unhandled rejection.
  tally.catch(() => undefined);
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            if (expectedSize !== undefined && size !== expectedSize) {
              throw new PackagingError([`${label}: the source gave ${size} bytes, not the ${expectedSize} declared`]);
            }
            controller.close();
            settle({ size, sha256: hash.digest('hex') });
            return;
          }
          if (!(next.value instanceof Uint8Array)) throw new PackagingError([`${label}: the source must yield bytes, not ${typeof next.value}`]);
          hash.update(next.value);
          size += next.value.byteLength;
          controller.enqueue(next.value);
        } catch (error) {
          fail(error);
          await reader.cancel(error).catch(() => undefined);
          throw error;
        }
      },
      async cancel(reason) {
        fail(reason ?? new Error(`${label}: the stream was cancelled`));
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const abort = async (reason: unknown): Promise<void> => {
    fail(reason);
    await reader.cancel(reason).catch(() => undefined);
  };
  return { stream, tally, abort };
}
