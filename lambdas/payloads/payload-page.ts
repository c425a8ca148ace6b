import type { Dependencies } from '#core/dependencies.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { collectFilteredPage, countFiltered, type BatchFilter } from '#core/store/filtered-paging.ts';
import type { ListKey } from '#core/store/keys.ts';

/** The paging part of a payload list query (parsed by the contract). */
export interface PagingQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
}


type PageDependencies = Pick<Dependencies, 'table' | 'cursors'>;

/**
 * One page of a payload list (or its total): a Query on `list` narrowed to the sort-key `range` (payload_time keys),
 * in `order`, with `keep` applied per batch as a FilterExpression would (at most 1,000 items read per request, so a
 * page may be short and still carry a cursor). Unlike device-data's `timedPage`, the filter is async (group facts)
 * and the order is the caller's (an SMS thread reads oldest first). The cursor is the signed key of the last item
 * returned, bound to the tenant, the list, the range and every filter.
 */
export async function payloadPage<T>(
  deps: PageDependencies,
  client: string,
  list: ListKey,
  range: [string, string] | undefined,
  order: 'newest' | 'oldest',
  query: PagingQuery,
  filters: Record<string, string | number | boolean | undefined>,
  keep: BatchFilter,
  toData: (item: TableItem) => T,
): Promise<Page<T> | { count: number }> {
  const base: QuerySpec = {
    ...(list.index === undefined ? {} : { index: list.index }),
    partition: list.partition,
    ...(range === undefined ? {} : { sort: { between: range } }),
    descending: order === 'newest',
  };

  if (query.result_type === 'total') return { count: await countFiltered(deps.table, base, keep) };

  const binding = { client, query: describeQuery(list, { ...filters, range: range?.join('..'), order }) };
  const startKey = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  const { data, lastKey } = await collectFilteredPage(deps.table, { query: base, startKey, limit: query.limit, keep, toData });
  return { count: data.length, data, ...(lastKey === undefined ? {} : { last_key: deps.cursors.encode(lastKey, binding) }) };
}
