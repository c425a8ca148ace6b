import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import type { ListKey } from '#core/store/keys.ts';
import { listPage, type BatchFilter, type PageQuery } from '#core/store/paging.ts';

/** Which payload list to page and how: the list and its sort-key range, the order, the page asked and its filters. */
export interface PayloadPageRequest<T> {
  list: ListKey;
  range: [string, string] | undefined;
  order: 'newest' | 'oldest';
  query: PageQuery;
  filters: Record<string, string | number | boolean | undefined>;
  keep: BatchFilter;
  toData: (item: TableItem) => T;
}

/**
 * One page of a payload list (or its total): a Query on `list` narrowed to the sort-key `range` (payload_time keys),
 * in `order` (an SMS thread reads oldest first), with `keep` (async: group facts) applied while paging by
 * core/store/paging.ts. The cursor is bound to the tenant, the list, the range, the order and every filter.
 */
export async function payloadPage<T>(
  deps: Pick<Dependencies, 'table' | 'cursors'>,
  client: string,
  { list, range, order, query, filters, keep, toData }: PayloadPageRequest<T>,
): Promise<Page<T> | { count: number }> {
  return listPage(deps, {
    client,
    query: {
      ...(list.index === undefined ? {} : { index: list.index }),
      partition: list.partition,
      ...(range === undefined ? {} : { sort: { between: range } }),
      descending: order === 'newest',
    },
    filters,
    page: query,
    keep,
    toData,
  });
}
