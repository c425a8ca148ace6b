import type * as z from 'zod';
import type { dateRangeQuery, pageQuery } from '#shared/contract/endpoints/query.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { QuerySpec, TableItem } from '../core/ports/table-store.ts';
import type { Page } from '../core/store/cursor.ts';
import { listPage, type BatchFilter } from '../core/store/paging.ts';
import type { TimedList } from '../core/store/keys.ts';
import { timeRangeOrAll } from '../core/store/time-range.ts';

/** The paging and range part of a time-ordered list query (the contract's listQuery with dateRangeQuery, parsed). */
export type TimedQuery = z.output<z.ZodObject<typeof pageQuery & typeof dateRangeQuery>>;

type PageDependencies = Pick<Dependencies, 'table' | 'cursors'>;

/** Which time-ordered list to page, the page asked, the filters its cursor is bound to, and how items are kept and shown. */
export interface TimedPageRequest<T> {
  list: TimedList;
  query: TimedQuery;
  filters: Record<string, string | number | boolean | undefined>;
  keep: BatchFilter | undefined;
  toData: (item: TableItem) => T | undefined;
}

/**
 * One page of a time-ordered list, newest first: a Query whose key condition is the `from`/`to` range on the sort
 * key (`<sortPrefix><ISO>#<id>`), with filters the key cannot express applied while paging (core/store/paging.ts:
 * a page may be short and still carry a cursor). The cursor is bound to the tenant, the list, the range and the
 * filters. `result_type=total` counts the range exactly, or refuses (narrow the range). `keep` is the list's batch
 * filter: for device data, the records not deleted by retention whose device is in the caller's group scope now
 * (core/auth/access/device-group-scope.ts), so totals count only what the pages show.
 */
export async function timedPage<T>(
  deps: PageDependencies,
  client: string,
  { list, query, filters, keep, toData }: TimedPageRequest<T>,
): Promise<Page<T> | { count: number }> {
  const [lower, upper] = timeRangeOrAll(query.from, query.to);
  const base: QuerySpec = {
    ...(list.index === undefined ? {} : { index: list.index }),
    partition: list.partition,
    sort: { between: [`${list.sortPrefix}${lower}`, `${list.sortPrefix}${upper}`] },
  };
  return listPage(deps, {
    client,
    query: { ...base, descending: true },
    filters: { ...filters, from: query.from, to: query.to, prefix: list.sortPrefix },
    page: query,
    keep,
    toData,
  });
}
