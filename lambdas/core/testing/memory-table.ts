import { ConditionFailedError, type ItemKey, type TableItem, type TableStore, type WriteCondition } from '../ports/table-store.ts';

/**
 * Test helper: an in-memory TableStore for HTTP-stack and service tests. Supports get, batchGet, put and delete
 * (with `item-exists` / `item-not-exists` conditions) and Query on the table or an index (partition equality,
 * sort-key order, limit, start key). Updates, transactions and raw condition expressions throw, so a test that
 * needs them is seen to need a real store.
 */
export function createMemoryTable(items: readonly TableItem[] = []): TableStore & { items(): TableItem[] } {
  const stored = new Map<string, TableItem>();
  const id = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
  for (const item of items) stored.set(id(item), structuredClone(item));
  const check = (key: ItemKey, condition: WriteCondition | undefined) => {
    if (condition === undefined) return;
    if (condition.kind === 'expression') throw new Error('memory table: condition expressions are not supported');
    const exists = stored.has(id(key));
    if ((condition.kind === 'item-exists') !== exists) throw new ConditionFailedError('Condition failed');
  };
  const unsupported = (name: string) => () => Promise.reject(new Error(`memory table: ${name} is not supported`));
  return {
    items: () => [...stored.values()].map((item) => structuredClone(item)),
    get: async (key) => {
      const item = stored.get(id(key));
      return item === undefined ? undefined : structuredClone(item);
    },
    batchGet: async (keys) => keys.flatMap((key) => {
      const item = stored.get(id(key));
      return item === undefined ? [] : [structuredClone(item)];
    }),
    put: async (item, options) => {
      check(item, options?.condition);
      stored.set(id(item), structuredClone(item));
    },
    delete: async (key, options) => {
      check(key, options?.condition);
      stored.delete(id(key));
    },
    query: async (query) => {
      const partitionName = query.index === undefined ? 'pk' : `${query.index}pk`;
      const sortName = query.index === undefined ? 'sk' : `${query.index}sk`;
      const sortOf = (item: TableItem) => String(item[sortName] ?? '');
      let matching = [...stored.values()]
        .filter((item) => item[partitionName] === query.partition && item[sortName] !== undefined)
        .sort((a, b) => (sortOf(a) < sortOf(b) ? -1 : sortOf(a) > sortOf(b) ? 1 : 0));
      if (query.descending) matching.reverse();
      const start = query.startKey?.[sortName];
      if (start !== undefined) matching = matching.filter((item) => (query.descending ? sortOf(item) < start : sortOf(item) > start));
      const limit = query.limit ?? matching.length;
      const page = matching.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((item) => structuredClone(item)),
        ...(matching.length > limit && last ? { lastKey: { pk: last.pk, sk: last.sk, [sortName]: sortOf(last) } } : {}),
      };
    },
    update: unsupported('update'),
    transactWrite: unsupported('transactWrite'),
  };
}
