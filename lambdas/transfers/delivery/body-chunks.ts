import type { DeliveryBody } from './types.ts';

/** The body failed while it was read: its own error, kept apart from the destination's failures. */
export class BodyError extends Error {
  constructor(readonly original: unknown) {
    super('the body failed', { cause: original });
  }
}

/**
 * Reads a body chunk by chunk, pulling the next only when the caller asks (backpressure reaches the producer).
 * A failure of the body is thrown as a BodyError; `cancel` stops a body the caller gives up on.
 */
export function chunksOf(body: DeliveryBody): { next(): Promise<Uint8Array | undefined>; cancel(reason: unknown): Promise<void> } {
  if ('getReader' in body) {
    const reader = body.getReader();
    return {
      async next() {
        try {
          const { done, value } = await reader.read();
          return done ? undefined : value;
        } catch (error) {
          throw new BodyError(error);
        }
      },
      cancel: (reason) => reader.cancel(reason).catch(() => undefined),
    };
  }
  const iterator = body[Symbol.asyncIterator]();
  return {
    async next() {
      try {
        const { done, value } = await iterator.next();
        return done ? undefined : value;
      } catch (error) {
        throw new BodyError(error);
      }
    },
    async cancel() {
      await iterator.return?.().catch(() => undefined);
    },
  };
}
