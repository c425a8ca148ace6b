import {
  ConditionFailedError,
  type ItemKey,
  type QuerySpec,
  type TableItem,
  type TableStore,
  type TransactOperation,
  type UpdateSpec,
  type WriteCondition,
} from '../ports/table-store.ts';
import { TABLE_KEYS } from '../store/table-definition.ts';

/**
 * TEST DOUBLE: the one in-memory TableStore for unit tests that need a table without DynamoDB Local. It keeps the
 * port's semantics (all-or-nothing transactions with conditions, sort-key order, Query pages with `lastKey` whenever
 * `limit` is reached, as DynamoDB does) and understands only `#name = :value` expression conditions: a service using
 * anything richer is tested against DynamoDB Local instead. Integration tests prove the same code there.
 */
export interface MemoryTable extends TableStore {
  /** Every item by `pk\u0000sk`, for assertions and for simulating tampering. */
  readonly items: Map<string, TableItem>;
  /** Every Query received, in order, for tests of access patterns. */
  readonly queries: QuerySpec[];
  /** Runs before each transaction is applied; throw from it to simulate a lost race. */
  beforeTransact?: (operations: readonly TransactOperation[]) => void;
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function holds(condition: WriteCondition | undefined, current: TableItem | undefined): boolean {
  if (condition === undefined) return true;
  switch (condition.kind) {
    case 'item-exists':
      return current !== undefined;
    case 'item-not-exists':
      return current === undefined;
    case 'expression': {
      // `attribute_not_exists(#a) OR #a = :v` (a running-job marker's run): no item, or one without the attribute, holds too.
      const orAbsent = /^\s*attribute_not_exists\((#\w+)\)\s+OR\s+(#\w+)\s*=\s*(:\w+)\s*$/.exec(condition.expression);
      if (orAbsent !== null && orAbsent[1] === orAbsent[2]) {
        const attribute = condition.names?.[orAbsent[1] as string] as string;
        return current?.[attribute] === undefined || current[attribute] === condition.values?.[orAbsent[3] as string];
      }
      const match = /^\s*(#\w+)\s*=\s*(:\w+)\s*$/.exec(condition.expression);
      if (match === null) throw new Error(`memory table: unsupported condition ${condition.expression}`);
      const attribute = condition.names?.[match[1] as string] as string;
      return current !== undefined && current[attribute] === condition.values?.[match[2] as string];
    }
  }
}

function applyUpdate(current: TableItem | undefined, key: ItemKey, update: UpdateSpec): TableItem {
  const next: TableItem = structuredClone(current) ?? { pk: key.pk, sk: key.sk, entity: '' };
  Object.assign(next, structuredClone(update.set ?? {}));
  for (const [attribute, amount] of Object.entries(update.add ?? {})) next[attribute] = ((next[attribute] as number | undefined) ?? 0) + amount;
  for (const attribute of update.remove ?? []) delete next[attribute];
  return next;
}

export function createMemoryTable(initial: readonly TableItem[] = []): MemoryTable {
  const items = new Map<string, TableItem>(initial.map((item) => [idOf(item), structuredClone(item)]));
  const queries: QuerySpec[] = [];

  const store: MemoryTable = {
    items,
    queries,
    async get(key) {
      const item = items.get(idOf(key));
      return item === undefined ? undefined : structuredClone(item);
    },
    async put(item, options) {
      if (!holds(options?.condition, items.get(idOf(item)))) throw new ConditionFailedError('Conflict');
      items.set(idOf(item), structuredClone(item));
    },
    async update(key, update, options) {
      const current = items.get(idOf(key));
      if (!holds(options?.condition, current)) throw new ConditionFailedError('Conflict');
      const next = applyUpdate(current, key, update);
      items.set(idOf(key), next);
      return structuredClone(next);
    },
    async delete(key, options) {
      if (!holds(options?.condition, items.get(idOf(key)))) throw new ConditionFailedError('Conflict');
      items.delete(idOf(key));
    },
    async query(query: QuerySpec) {
      queries.push(query);
      const index = TABLE_KEYS.indexes.find((entry) => entry.name === query.index);
      const partitionKey = index?.partitionKey ?? TABLE_KEYS.partitionKey;
      const sortKey = index?.sortKey ?? TABLE_KEYS.sortKey;
      const sortOf = (item: TableItem) => String(item[sortKey]);
      let matches = [...items.values()].filter((item) => item[partitionKey] === query.partition && item[sortKey] !== undefined);
      if (query.sort !== undefined) {
        const sort = query.sort;
        matches = matches.filter((item) =>
          'beginsWith' in sort ? sortOf(item).startsWith(sort.beginsWith) : sortOf(item) >= sort.between[0] && sortOf(item) <= sort.between[1],
        );
      }
      matches.sort((a, b) => byCodeUnit(sortOf(a), sortOf(b)) || byCodeUnit(a.pk, b.pk) || byCodeUnit(a.sk, b.sk));
      if (query.startKey !== undefined) {
        // As DynamoDB: the page goes on after the key's position, whether or not that item is still there (a job that
        // moves the items it reads out of the list pages on past them). Binary search: the list is sorted.
        const start = query.startKey;
        const startSort = String(start[sortKey]);
        const order = (item: TableItem) => byCodeUnit(sortOf(item), startSort) || byCodeUnit(item.pk, String(start.pk)) || byCodeUnit(item.sk, String(start.sk));
        let [low, high] = [0, matches.length];
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (order(matches[middle] as TableItem) <= 0) low = middle + 1;
          else high = middle;
        }
        // `low`: the first item after the key. Descending goes on with the items before it (the key's own excluded).
        const atKey = low > 0 && order(matches[low - 1] as TableItem) === 0 ? low - 1 : low;
        matches = query.descending ? matches.slice(0, atKey) : matches.slice(low);
      }
      if (query.descending) matches.reverse();
      const limited = query.limit === undefined ? matches : matches.slice(0, query.limit);
      const last = limited.at(-1);
      const reachedLimit = query.limit !== undefined && limited.length === query.limit;
      const lastKey =
        reachedLimit && last !== undefined
          ? Object.fromEntries([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, partitionKey, sortKey].map((name) => [name, String(last[name])]))
          : undefined;
      return { items: limited.map((item) => structuredClone(item)), ...(lastKey === undefined ? {} : { lastKey }) };
    },
    async transactWrite(operations) {
      store.beforeTransact?.(operations);
      for (const operation of operations) {
        const key = operation.kind === 'put' ? operation.item : operation.key;
        if (!holds(operation.condition, items.get(idOf(key)))) throw new ConditionFailedError('Conflict');
      }
      for (const operation of operations) {
        if (operation.kind === 'put') items.set(idOf(operation.item), structuredClone(operation.item));
        else if (operation.kind === 'update') items.set(idOf(operation.key), applyUpdate(items.get(idOf(operation.key)), operation.key, operation.update));
        else if (operation.kind === 'delete') items.delete(idOf(operation.key));
      }
    },
    async batchGet(keys) {
      return keys.flatMap((key) => {
        const item = items.get(idOf(key));
        return item === undefined ? [] : [structuredClone(item)];
      });
    },
  };
  return store;
}
