import type { IndexName } from '../store/table-definition.ts';
import { ConflictError } from '../errors.ts';

/** Primary key of an item in the one table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** A stored item: keys, entity tag, and the entity's own attributes. */
export interface TableItem extends ItemKey {
  /** Entity tag (TABLE_KEYS.entityAttribute). Every item has one. */
  entity: string;
  [attribute: string]: unknown;
}

/**
 * A condition on a write. `item-exists` / `item-not-exists` cover create and update-only; `expression` is a raw
 * DynamoDB condition for the rest (placeholders `#name` / `:value` with their maps).
 */
export type WriteCondition =
  | { kind: 'item-exists' }
  | { kind: 'item-not-exists' }
  | { kind: 'expression'; expression: string; names?: Record<string, string>; values?: Record<string, unknown> };

/** An update by attribute: SET values, ADD numbers (atomic counters), REMOVE attributes. */
export interface UpdateSpec {
  set?: Record<string, unknown>;
  /** Atomic increments (negative to decrement). Counters are kept this way, never by reading everything. */
  add?: Record<string, number>;
  remove?: string[];
}

/** A Query on the table or one index: one partition, optionally narrowed on the sort key. */
export interface QuerySpec {
  /** Omit for the table's own keys. */
  index?: IndexName;
  /** The partition key value (pk, or the index's partition attribute). */
  partition: string;
  /** Narrow the sort key: prefix, or inclusive range. */
  sort?: { beginsWith: string } | { between: [string, string] };
  /** Newest first when the sort key is time-ordered. */
  descending?: boolean;
  /** Page size (DynamoDB evaluates at most this many items). */
  limit?: number;
  /** Where the previous page stopped (its `lastKey`). Decode cursors with the store's cursor module first. */
  startKey?: Record<string, string>;
  consistent?: boolean;
}

export interface QueryPage {
  items: TableItem[];
  /** Present when more items may follow. */
  lastKey?: Record<string, string>;
}

/** One write of a transaction. */
export type TransactOperation =
  | { kind: 'put'; item: TableItem; condition?: WriteCondition }
  | { kind: 'update'; key: ItemKey; update: UpdateSpec; condition?: WriteCondition }
  | { kind: 'delete'; key: ItemKey; condition?: WriteCondition }
  | { kind: 'check'; key: ItemKey; condition: WriteCondition };

/**
 * The one DynamoDB table (DESIGN.md §5). Every list is a Query on a key or an index: the port has no scan.
 * A failed write condition throws ConditionFailedError (a 409 unless the service says otherwise).
 */
export interface TableStore {
  get(key: ItemKey, options?: { consistent?: boolean }): Promise<TableItem | undefined>;
  put(item: TableItem, options?: { condition?: WriteCondition }): Promise<void>;
  /** Returns the item after the update. */
  update(key: ItemKey, update: UpdateSpec, options?: { condition?: WriteCondition }): Promise<TableItem | undefined>;
  delete(key: ItemKey, options?: { condition?: WriteCondition }): Promise<void>;
  query(query: QuerySpec): Promise<QueryPage>;
  /** All or nothing, at most 100 operations. A failed condition throws ConditionFailedError. */
  transactWrite(operations: readonly TransactOperation[]): Promise<void>;
  /** Items that exist among the keys, in no particular order. Any number of keys (batched by 100). */
  batchGet(keys: readonly ItemKey[], options?: { consistent?: boolean }): Promise<TableItem[]>;
}

/** A write's condition did not hold (item exists already, was changed meanwhile, …). */
export class ConditionFailedError extends ConflictError {
  override readonly name = 'ConditionFailedError';
}

/**
 * DynamoDB cancelled a transaction because another transaction was writing one of its items at that moment: contention
 * (counter items every write of a kind touches, two job runs at once), not a failed condition. The adapter passes the
 * SDK's error on; this names it once for every caller that waits and tries again, or treats it as the other's win.
 */
export function isTransactionConflict(error: unknown): boolean {
  const failure = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> } | null;
  if (failure?.name === 'TransactionConflictException') return true;
  return failure?.name === 'TransactionCanceledException' && (failure.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
}
