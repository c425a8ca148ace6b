import type { TableItem } from '../ports/table-store.ts';

/**
 * The limits every list that filters while paging shares (time-page.ts, payload-page.ts, the activities list): the
 * same rules as a DynamoDB FilterExpression, stated once.
 */

/** Items one request reads at most while filtering: a selective filter answers a short page and a cursor, not a timeout. */
export const MAX_EVALUATED_PER_PAGE = 1_000;
/** Items a total reads at most; beyond, the caller is asked to narrow the time range. */
export const MAX_EVALUATED_FOR_TOTAL = 20_000;
/** Query page size while filtering or counting. */
export const FILTER_BATCH = 100;

/** The key of an item in the list it was read from (what DynamoDB's LastEvaluatedKey would be): table key plus index key. */
export function cursorKeyOf(list: { index?: string | undefined }, item: TableItem): Record<string, string> {
  const key: Record<string, string> = { pk: item.pk, sk: item.sk };
  if (list.index !== undefined) {
    key[`${list.index}pk`] = String(item[`${list.index}pk`]);
    key[`${list.index}sk`] = String(item[`${list.index}sk`]);
  }
  return key;
}
