import type { Dependencies } from '../dependencies.ts';
import { ValidationError } from '../errors.ts';
import type { QuerySpec, TableItem } from '../ports/table-store.ts';
import { describeQuery, type Page } from '../store/cursor.ts';
import { cursorKeyOf, FILTER_BATCH, MAX_EVALUATED_FOR_TOTAL, MAX_EVALUATED_PER_PAGE } from '../store/filtered-paging.ts';
import type { TimedList } from '../store/keys.ts';
import { timeRangeOrAll } from '../store/time-range.ts';

/** The paging and range part of a time-ordered list query (the contract's listQuery with dateRangeQuery, parsed). */
export interface TimedQuery {
  from?: string | undefined;
  to?: string | undefined;
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
}

type PageDependencies = Pick<Dependencies, 'table' | 'cursors'>;

/**
 * One page of a time-ordered list, newest first: a Query whose key condition is the `from`/`to` range on the sort
 * key (`<sortPrefix><ISO>#<id>`), with filters the key cannot express applied while paging (as a FilterExpression
 * would: reading at most 1,000 items per request, so a page may be short and still carry a cursor). The cursor is
 * the signed key of the last item returned, bound to the tenant, the list, the range and the filters.
 * `result_type=total` counts the range (refused beyond 20,000 items: narrow the range).
 */
export async function timedPage<T>(
  deps: PageDependencies,
  client: string,
  list: TimedList,
  query: TimedQuery,
  filters: Record<string, string | number | boolean | undefined>,
  keep: ((item: TableItem) => boolean) | undefined,
  toData: (item: TableItem) => T | undefined,
): Promise<Page<T> | { count: number }> {
  const [lower, upper] = timeRangeOrAll(query.from, query.to);
  const base: QuerySpec = {
    ...(list.index === undefined ? {} : { index: list.index }),
    partition: list.partition,
    sort: { between: [`${list.sortPrefix}${lower}`, `${list.sortPrefix}${upper}`] },
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
      count += keep === undefined ? page.items.length : page.items.filter(keep).length;
      startKey = page.lastKey;
    } while (startKey !== undefined);
    return { count };
  }

  const binding = { client, query: describeQuery(list, { ...filters, from: query.from, to: query.to, prefix: list.sortPrefix }) };
  let startKey = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  const data: T[] = [];
  let evaluated = 0;
  let lastKey: Record<string, string> | undefined;

  pages: while (true) {
    const wanted = query.limit - data.length;
    const page = await deps.table.query({
      ...base,
      descending: true,
      // Unfiltered, what the page needs and one more (to know whether a cursor is due); filtered, in batches.
      limit: keep === undefined ? wanted + 1 : Math.max(wanted + 1, FILTER_BATCH),
      ...(startKey ? { startKey } : {}),
    });
    for (const [position, item] of page.items.entries()) {
      evaluated += 1;
      if (keep === undefined || keep(item)) {
        const value = toData(item);
        if (value !== undefined) data.push(value);
      }
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
