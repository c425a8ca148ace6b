import { ValidationError } from '../errors.ts';
import type { QuerySpec, TableItem, TableStore } from '../ports/table-store.ts';

/**
 * Lists that filter while paging (time-page.ts, payload-page.ts, the activities list) do what a DynamoDB
 * FilterExpression would, with its cost model: items read, not items returned. Their limits and loops live here once.
 */

/** Items one request reads at most while filtering: a selective filter answers a short page and a cursor, not a timeout. */
export const MAX_EVALUATED_PER_PAGE = 1_000;
/** Items a total reads at most; beyond, the caller is asked to narrow the time range. */
export const MAX_EVALUATED_FOR_TOTAL = 20_000;
/** Query page size while filtering or counting. */
export const FILTER_BATCH = 100;

/**
 * The items of one batch that pass the list's filters. It may be async: the payload lists' group restriction reads
 * the facts of a batch's groups once per batch.
 */
export type BatchFilter = (items: readonly TableItem[]) => readonly TableItem[] | Promise<readonly TableItem[]>;

/** A per-item filter as a BatchFilter (undefined stays undefined: nothing to filter). */
export function perItem(keep: ((item: TableItem) => boolean) | undefined): BatchFilter | undefined {
  return keep === undefined ? undefined : (items) => items.filter(keep);
}

/** The key of an item in the list it was read from (what DynamoDB's LastEvaluatedKey would be): table key plus index key. */
export function cursorKeyOf(list: { index?: string | undefined }, item: TableItem): Record<string, string> {
  const key: Record<string, string> = { pk: item.pk, sk: item.sk };
  if (list.index !== undefined) {
    key[`${list.index}pk`] = String(item[`${list.index}pk`]);
    key[`${list.index}sk`] = String(item[`${list.index}sk`]);
  }
  return key;
}

/** `result_type=total` of a filtered list: the items of `query` that pass `keep`, refused beyond MAX_EVALUATED_FOR_TOTAL. */
export async function countFiltered(table: Pick<TableStore, 'query'>, query: QuerySpec, keep: BatchFilter | undefined): Promise<number> {
  let count = 0;
  let evaluated = 0;
  let startKey: Record<string, string> | undefined;
  do {
    const page = await table.query({ ...query, limit: 1_000, ...(startKey ? { startKey } : {}) });
    evaluated += page.items.length;
    if (evaluated > MAX_EVALUATED_FOR_TOTAL) {
      throw new ValidationError([`query.result_type: More than ${MAX_EVALUATED_FOR_TOTAL} records to count; narrow the time range`]);
    }
    count += keep === undefined ? page.items.length : (await keep(page.items)).length;
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return count;
}

export interface FilteredPageInput<T> {
  /** The Query, without its limit and start key. */
  query: QuerySpec;
  /** Where the previous page stopped (the decoded cursor). */
  startKey: Record<string, string> | undefined;
  /** Items the page holds at most. */
  limit: number;
  keep: BatchFilter | undefined;
  /** The item as the page shows it; undefined leaves it out (a record the contract cannot read). */
  toData: (item: TableItem) => T | undefined;
}

/**
 * Fills one page from `query`, applying `keep` batch by batch. It stops when the page is full (the cursor is then the
 * key of its last item, unless that item was the list's very last: no cursor to an empty page), when the list ends,
 * or after MAX_EVALUATED_PER_PAGE items read (the cursor is where the reading stopped: a short page that goes on).
 * Unfiltered, it reads what the page needs and one more, to know whether a cursor is due.
 */
export async function collectFilteredPage<T>(
  table: Pick<TableStore, 'query'>,
  input: FilteredPageInput<T>,
): Promise<{ data: T[]; lastKey: Record<string, string> | undefined }> {
  const data: T[] = [];
  let startKey = input.startKey;
  let evaluated = 0;
  for (;;) {
    const wanted = input.limit - data.length;
    const page = await table.query({
      ...input.query,
      limit: input.keep === undefined ? wanted + 1 : Math.max(wanted + 1, FILTER_BATCH),
      ...(startKey ? { startKey } : {}),
    });
    const kept = input.keep === undefined ? undefined : new Set(await input.keep(page.items));
    for (const [position, item] of page.items.entries()) {
      evaluated += 1;
      if (kept === undefined || kept.has(item)) {
        const value = input.toData(item);
        if (value !== undefined) data.push(value);
      }
      if (data.length === input.limit) {
        const atEnd = position === page.items.length - 1 && page.lastKey === undefined;
        return { data, lastKey: atEnd ? undefined : cursorKeyOf(input.query, item) };
      }
    }
    if (page.lastKey === undefined) return { data, lastKey: undefined };
    if (evaluated >= MAX_EVALUATED_PER_PAGE) return { data, lastKey: page.lastKey };
    startKey = page.lastKey;
  }
}
