import { ConditionFailedError, isTransactionConflict } from '../core/ports/table-store.ts';

/** Attempts before a contended write gives up (each waits a bounded random while, so racers spread out). */
export const MAX_ATTEMPTS = 12;

/** A random wait that grows with the attempt, capped at ~200 ms (full jitter). */
export function jitterMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(200, 10 * 2 ** attempt));
}

/**
 * A write that lost a race: a failed condition, or a transaction cancelled because another transaction was writing
 * the same item (the tenant counter is in every raise, so concurrent raises meet there). Both are safe to redo.
 */
export function isContention(error: unknown): boolean {
  if (error instanceof ConditionFailedError || isTransactionConflict(error)) return true;
  // A transaction cancelled because one of its conditions failed: a race lost too.
  const { name, CancellationReasons: reasons } = (error ?? {}) as { name?: unknown; CancellationReasons?: Array<{ Code?: string }> };
  return name === 'TransactionCanceledException' && (reasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it returns, retrying after a jittered wait while a write loses a race (isContention; the
 * next attempt reads afresh). Other errors, and the last conflict, propagate.
 */
export async function retryOnConflict<T>(attempt: (index: number) => Promise<T>, maxAttempts = MAX_ATTEMPTS): Promise<T> {
  for (let index = 0; ; index += 1) {
    try {
      return await attempt(index);
    } catch (error) {
      if (!isContention(error) || index + 1 >= maxAttempts) throw error;
      await sleep(jitterMs(index));
    }
  }
}
