import { UserActivity } from '#shared/contract/entities/activity.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ValidationError } from '#core/errors.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { cursorKeyOf, FILTER_BATCH, MAX_EVALUATED_FOR_TOTAL, MAX_EVALUATED_PER_PAGE } from '#core/store/filtered-paging.ts';
import { keys } from '#core/store/keys.ts';
import { timeRange } from '#core/store/time-range.ts';

/** The filters of `GET activities` (the contract's query, as parsed). */
export interface ActivityQuery {
  from?: string;
  to?: string;
  user_id?: string;
  action?: string;
  is_allowed?: boolean;
  limit: number;
  last_key?: string;
  result_type: 'page' | 'total';
}

function matcher(query: ActivityQuery): ((item: TableItem) => boolean) | undefined {
  const { user_id: userId, action, is_allowed: isAllowed } = query;
  if (userId === undefined && action === undefined && isAllowed === undefined) return undefined;
  return (item) =>
    (userId === undefined || item.user_id === userId) &&
    (action === undefined || item.action === action) &&
    (isAllowed === undefined || item.is_allowed === isAllowed);
}

/**
 * `GET activities`: the tenant's user activity, newest first, as the contract's UserActivity (chain fields left out).
 *
 * A Query on the tenant's time index (gsi1 of `keys.userActivity.list`): the `from`/`to` range is a key condition
 * on the ISO time prefix of the sort key. `user_id`, `action` and `is_allowed` filter while paging (the table port has
 * no FilterExpression, so the service does what one would, with the same cost model: items read, not items returned).
 * Pages fill up to `limit`, reading at most 1,000 items per request; a page may then be short, with a cursor to go on.
 * The cursor is the signed key of the last item read, bound to the tenant and to these exact filters.
 *
 * `result_type=total` counts: the chain head's sequence when nothing narrows the list (no read of the records), else
 * by reading the matching range, refused (400) beyond 20,000 records.
 */
export async function listActivities(
  dependencies: Pick<Dependencies, 'table' | 'cursors' | 'logger'>,
  client: string,
  query: ActivityQuery,
): Promise<Page<UserActivity> | { count: number }> {
  const { table, cursors, logger } = dependencies;
  const list = keys.userActivity.list(client);
  const range = timeRange(query.from, query.to);
  const matches = matcher(query);
  const sort = range === undefined ? {} : { sort: { between: range } };

  if (query.result_type === 'total') {
    if (range === undefined && matches === undefined) {
      const head = await table.get(keys.userActivity.head(client));
      return { count: typeof head?.sequence === 'number' ? head.sequence : 0 };
    }
    let count = 0;
    let evaluated = 0;
    let startKey: Record<string, string> | undefined;
    do {
      const page = await table.query({ ...list, ...sort, limit: 1_000, ...(startKey ? { startKey } : {}) });
      evaluated += page.items.length;
      if (evaluated > MAX_EVALUATED_FOR_TOTAL) {
        throw new ValidationError([`query.result_type: More than ${MAX_EVALUATED_FOR_TOTAL} records to count; narrow the time range`]);
      }
      count += matches === undefined ? page.items.length : page.items.filter(matches).length;
      startKey = page.lastKey;
    } while (startKey !== undefined);
    return { count };
  }

  const binding = {
    client,
    query: describeQuery(list, { from: query.from, to: query.to, user_id: query.user_id, action: query.action, is_allowed: query.is_allowed }),
  };
  let startKey = query.last_key === undefined ? undefined : cursors.decode(query.last_key, binding);
  const data: UserActivity[] = [];
  let evaluated = 0;
  let lastKey: Record<string, string> | undefined;

  pages: while (true) {
    const wanted = query.limit - data.length;
    const page = await table.query({
      ...list,
      ...sort,
      descending: true,
      // Unfiltered, read what the page needs and one more (to know whether a cursor is due); filtered, in batches.
      limit: matches === undefined ? wanted + 1 : Math.max(wanted + 1, FILTER_BATCH),
      ...(startKey ? { startKey } : {}),
    });
    for (const [position, item] of page.items.entries()) {
      evaluated += 1;
      if (matches === undefined || matches(item)) {
        const activity = UserActivity.safeParse(item);
        // A record the contract cannot read is kept out of the page, not hidden: verifyChain reports it.
        if (activity.success) data.push(activity.data);
        else logger.warn('activity record unreadable', { client, log_id: String(item.log_id), sequence: item.sequence });
      }
      if (data.length === query.limit) {
        // The list's very last item fills the page: no cursor to an empty page.
        const atEnd = position === page.items.length - 1 && page.lastKey === undefined;
        if (!atEnd) lastKey = cursorKeyOf({ index: 'gsi1' }, item);
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

  return { count: data.length, data, ...(lastKey === undefined ? {} : { last_key: cursors.encode(lastKey, binding) }) };
}
