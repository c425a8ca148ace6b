import type { Dependencies } from '#core/dependencies.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import type { ListKey } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';

/** Paging fields every list query carries (as the contract parses them). */
export interface ListQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
}

/** DynamoDB reads one page may spend looking for matches before it answers with what it found and a cursor. */
const MAX_READS = 10;
/** A total reads the list's items: capped so one call cannot read without end. */
const MAX_TOTAL_READS = 100;

export interface FilteredList<T> {
  list: ListKey;
  sort: QuerySpec['sort'];
  descending: boolean;
  /** `describeQuery(list, filters)`: the cursor is bound to it and the tenant. */
  binding: string;
  query: ListQuery;
  /** Filters applied to the Query's items (as a FilterExpression would; may read, e.g. a group's tags). */
  matches: (item: TableItem) => Promise<boolean>;
  toData: (item: TableItem) => T;
}

/**
 * One page (or the total) of a Query whose items are filtered after reading: a page may hold fewer than `limit`
 * items and still carry a cursor; the cursor resumes right after the last item shown.
 */
export async function filteredPage<T>(
  deps: Pick<Dependencies, 'table' | 'cursors'>,
  client: string,
  spec: FilteredList<T>,
): Promise<Page<T> | { count: number }> {
  const binding = { client, query: spec.binding };
  const base = { ...spec.list, ...(spec.sort ? { sort: spec.sort } : {}), descending: spec.descending };
  let startKey = spec.query.last_key === undefined ? undefined : deps.cursors.decode(spec.query.last_key, binding);

  if (spec.query.result_type === 'total') {
    let count = 0;
    for (let reads = 0; reads < MAX_TOTAL_READS; reads += 1) {
      const page = await deps.table.query({ ...base, limit: 1000, ...(startKey ? { startKey } : {}) });
      for (const item of page.items) if (await spec.matches(item)) count += 1;
      if (page.lastKey === undefined) break;
      startKey = page.lastKey;
    }
    return { count };
  }

  const limit = spec.query.limit;
  const found: TableItem[] = [];
  let more: Record<string, string> | undefined;
  for (let reads = 0; reads < MAX_READS; reads += 1) {
    const page = await deps.table.query({ ...base, limit: Math.max(limit, 100), ...(startKey ? { startKey } : {}) });
    for (const item of page.items) {
      if (!(await spec.matches(item))) continue;
      found.push(item);
      if (found.length === limit) break;
    }
    if (found.length === limit) {
      const last = found[found.length - 1] as TableItem;
      const lastOfList = page.items[page.items.length - 1] === last && page.lastKey === undefined;
      more = lastOfList ? undefined : keyOf(last, spec.list);
      break;
    }
    more = page.lastKey;
    if (page.lastKey === undefined) break;
    startKey = page.lastKey;
  }
  const data = found.map(spec.toData);
  return { count: data.length, data, ...(more === undefined ? {} : { last_key: deps.cursors.encode(more, binding) }) };
}

/** The start key of an item on the list's index (or the table): its table key plus the index's keys. */
function keyOf(item: TableItem, list: ListKey): Record<string, string> {
  const index = TABLE_KEYS.indexes.find((candidate) => candidate.name === list.index);
  return {
    pk: item.pk,
    sk: item.sk,
    ...(index === undefined ? {} : { [index.partitionKey]: String(item[index.partitionKey]), [index.sortKey]: String(item[index.sortKey]) }),
  };
}
