import type { Dependencies } from '#core/dependencies.ts';
import { isTransactionConflict, type TransactOperation } from '#core/ports/table-store.ts';

/** Attempts at a transaction another one touching the same counter item made DynamoDB cancel. */
const CONFLICT_ATTEMPTS = 6;

/**
 * One transaction of a completeness write. Every entry write ADDs to its day's counter items, which every other entry
 * of that day, tenant, group or device also writes: two transactions on the same item at once make DynamoDB cancel
 * one (TransactionConflict). That is contention, not a refusal, so it is tried again after a short, growing, jittered
 * wait; a failed condition (ConditionFailedError) and anything else is thrown at once.
 */
export async function transactCounted(deps: Pick<Dependencies, 'table'>, operations: readonly TransactOperation[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.table.transactWrite(operations);
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}
