import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import type { ListKey } from '#core/store/keys.ts';

/** What the access services use: the table, the clock (updated_at) and the cursor codec (lists). */
export type AccessDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** The list query every access list accepts (the contract's `listQuery(referenceFilterQuery)`). */
export interface ListQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
  /** Only references starting with this (the list's sort key narrowed: still one Query). */
  starts_with?: string | undefined;
}

/**
 * Walking a whole partition (counts, reviews) stops here: a tenant's roles, tags or groups are a few hundred at
 * most, and a bound keeps a hostile tenant from making one request read without end.
 */
const MAX_PAGES = 200;

/** Every item of a list partition (bounded), for reviews and checks that must see them all. */
export async function queryAll(dependencies: Pick<AccessDependencies, 'table'>, list: ListKey): Promise<TableItem[]> {
  const items: TableItem[] = [];
  let startKey: Record<string, string> | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const page = await dependencies.table.query({ ...list, consistent: list.index === undefined, ...(startKey ? { startKey } : {}) });
    items.push(...page.items);
    if (page.lastKey === undefined) return items;
    startKey = page.lastKey;
  }
  throw new Error(`List ${list.partition} is longer than ${MAX_PAGES} pages`);
}

/**
 * One page of a list (the spec's `{count, last_key, data}` with a signed cursor bound to tenant and list), or with
 * `result_type=total` the count alone.
 */
export async function listPage<T>(
  dependencies: AccessDependencies,
  client: string,
  list: ListKey,
  query: ListQuery,
  toData: (item: TableItem) => T,
): Promise<Page<T> | { count: number }> {
  if (query.result_type === 'total') return { count: (await queryAll(dependencies, list)).length };
  const binding = { client, query: describeQuery(list) };
  const startKey = query.last_key === undefined ? undefined : dependencies.cursors.decode(query.last_key, binding);
  const result = await dependencies.table.query({ ...list, limit: query.limit, ...(startKey ? { startKey } : {}) });
  return dependencies.cursors.page(result, binding, toData);
}
