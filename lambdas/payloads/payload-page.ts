import type { Dependencies } from '#core/dependencies.ts';
import { ValidationError } from '#core/errors.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { cursorKeyOf, FILTER_BATCH, MAX_EVALUATED_FOR_TOTAL, MAX_EVALUATED_PER_PAGE } from '#core/store/filtered-paging.ts';
import type { ListKey } from '#core/store/keys.ts';

/** The paging part of a payload list query (parsed by the contract). */
export interface PagingQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
}

/**
 * Filters the key cannot express, applied to a batch of items read. Async because the group restriction may read
 * the facts of the batch's groups (one batchGet per batch, see payload-access.ts).
 */
export type BatchFilter = (items: readonly TableItem[]) => Promise<TableItem[]>;

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

  if (query.result_type === 'total') {
    let count = 0;
    let evaluated = 0;
    let startKey: Record<string, string> | undefined;
    do {
      const page = await deps.table.query({ ...base, limit: 1_000, ...(startKey ? { startKey } : {}) });
      evaluated += page.items.length;
      if (evaluated > MAX_EVALUATED_FOR_TOTAL) {
        throw new ValidationError([`query.result_type: More than ${MAX_EVALUATED_FOR_TOTAL} records to count; narrow the time range`]);
      }
      count += (await keep(page.items)).length;
      startKey = page.lastKey;
    } while (startKey !== undefined);
    return { count };
  }

  const binding = { client, query: describeQuery(list, { ...filters, range: range?.join('..'), order }) };
  let startKey = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  const data: T[] = [];
  let evaluated = 0;
  let lastKey: Record<string, string> | undefined;

  pages: while (true) {
    const wanted = query.limit - data.length;
    const page = await deps.table.query({ ...base, limit: Math.max(wanted + 1, FILTER_BATCH), ...(startKey ? { startKey } : {}) });
    const kept = new Set(await keep(page.items));
    for (const [position, item] of page.items.entries()) {
      evaluated += 1;
      if (kept.has(item)) data.push(toData(item));
      if (data.length === query.limit) {
        const atEnd = position === page.items.length - 1 && page.lastKey === undefined;
        if (!atEnd) lastKey = cursorKeyOf(list, item);
        break pages;
      }
    }
    if (page.lastKey === undefined) break;
    if (evaluated >= MAX_EVALUATED_PER_PAGE) {
      lastKey = page.lastKey;
      break;
    }
    startKey = page.lastKey;
  }
  return { count: data.length, data, ...(lastKey === undefined ? {} : { last_key: deps.cursors.encode(lastKey, binding) }) };
}
