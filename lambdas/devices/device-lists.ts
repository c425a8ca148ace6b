import type { GroupScope } from '#core/auth/access/group-scope.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { collectFilteredPage } from '#core/store/filtered-paging.ts';
import type { ListKey } from '#core/store/keys.ts';

/** What the devices-group services use. */
export type DevicesDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** The paging part of every list query of the group. */
export interface PageQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
}

/** A filter the key cannot express, applied to each item read (undefined = keep all). */
export type ItemFilter = (item: TableItem) => boolean;

/**
 * Counting walks the list partition to its end: bounded, so a hostile query cannot read without end. At DynamoDB's
 * 1 MB pages this is far beyond a tenant's fleet (a 20,000-device list is a few pages).
 */
const MAX_PAGES = 500;


/**
 * One page of a Query, with filters the key cannot express applied to the items read (as a DynamoDB filter
 * expression would: a page may hold fewer than `limit` items, even none, and still carry a cursor). The cursor is
 * bound to the tenant, the partition AND the filters, so it cannot be replayed against another list.
 * `result_type=total` walks the partition and counts what passes. `scope` keeps the items of the caller's groups
 * (the group scope, applied after the other filters; a cursor is the caller's own, so it needs no binding to it).
 */
export async function filteredPage<T>(
  dependencies: DevicesDependencies,
  client: string,
  list: ListKey,
  query: PageQuery,
  filters: Record<string, string | number | boolean | undefined>,
  keep: ItemFilter | undefined,
  toData: (item: TableItem) => T,
  scope: GroupScope,
): Promise<Page<T> | { count: number }> {
  const passing = async (items: readonly TableItem[]) => scope.filter(keep === undefined ? items : items.filter(keep));
  const sortSpec = list.sort === undefined ? {} : { sort: list.sort };
  if (query.result_type === 'total') {
    let count = 0;
    let startKey: Record<string, string> | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = await dependencies.table.query({ index: list.index, partition: list.partition, ...sortSpec, ...(startKey ? { startKey } : {}) });
      count += (await passing(page.items)).length;
      if (page.lastKey === undefined) return { count };
      startKey = page.lastKey;
    }
    throw new Error(`List ${list.partition} is longer than ${MAX_PAGES} pages`);
  }
  const binding = { client, query: describeQuery(list, filters) };
  const startKey = query.last_key === undefined ? undefined : dependencies.cursors.decode(query.last_key, binding);
  if (!scope.unrestricted) {
    // A group-limited role may reach few of the list's items: fill the page while paging (bounded reads per request,
    // core/store/filtered-paging.ts) rather than answer the empty pages a plain filter would.
    const base = { ...(list.index === undefined ? {} : { index: list.index }), partition: list.partition, ...sortSpec };
    const page = await collectFilteredPage(dependencies.table, { query: base, startKey, limit: query.limit, keep: passing, toData });
    return { count: page.data.length, data: page.data, ...(page.lastKey === undefined ? {} : { last_key: dependencies.cursors.encode(page.lastKey, binding) }) };
  }
  const result = await dependencies.table.query({
    index: list.index,
    partition: list.partition,
    ...sortSpec,
    limit: query.limit,
    ...(startKey ? { startKey } : {}),
  });
  const items = await passing(result.items);
  return dependencies.cursors.page({ items, ...(result.lastKey ? { lastKey: result.lastKey } : {}) }, binding, toData);
}

/** Case-insensitive prefix search over the named text attributes (the contract's `search`). */
export function searchFilter(search: string | undefined, attributes: readonly string[]): ItemFilter | undefined {
  if (search === undefined) return undefined;
  const needle = search.toLowerCase();
  return (item) => attributes.some((name) => typeof item[name] === 'string' && (item[name] as string).toLowerCase().startsWith(needle));
}

/** All the given filters (undefined ones skipped), or undefined when there are none. */
export function allOf(...filters: Array<ItemFilter | undefined>): ItemFilter | undefined {
  const present = filters.filter((filter): filter is ItemFilter => filter !== undefined);
  if (present.length === 0) return undefined;
  return (item) => present.every((filter) => filter(item));
}
