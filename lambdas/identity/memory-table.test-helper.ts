import type { ItemKey, QuerySpec, TableItem, TableStore } from '#core/ports/table-store.ts';

/**
 * Test helper: the little of a TableStore the identity services use (get, and Query on the table's own keys in
 * sort-key order with limit and start key). Anything else throws, so a service straying from its pattern is seen.
 */
export function memoryTable(items: TableItem[] = []): TableStore & { queries: QuerySpec[] } {
  const stored = [...items];
  const queries: QuerySpec[] = [];
  const unsupported = () => Promise.reject(new Error('not supported by memoryTable'));
  return {
    queries,
    get: async (key: ItemKey) => stored.find((item) => item.pk === key.pk && item.sk === key.sk),
    async query(query) {
      queries.push(query);
      if (query.index !== undefined) throw new Error('memoryTable queries the table only');
      const start = query.startKey;
      const partition = stored
        .filter((item) => item.pk === query.partition)
        .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
        .filter((item) => start === undefined || item.sk > (start.sk ?? ''));
      const limit = query.limit ?? partition.length;
      const page = partition.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page,
        ...(partition.length > limit && last ? { lastKey: { pk: last.pk, sk: last.sk } } : {}),
      };
    },
    put: unsupported,
    update: unsupported,
    delete: unsupported,
    transactWrite: unsupported,
    batchGet: unsupported,
  };
}
