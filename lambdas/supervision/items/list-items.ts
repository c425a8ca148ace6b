import type { CountOnly } from '#shared/contract/entities/common.ts';
import type { SupervisionItem } from '#shared/contract/entities/supervision.ts';
import type { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import { readSupervisionItem, toSupervisionItem, type SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type BatchFilter, type QueryOf } from '#core/store/paging.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';

type ItemListQuery = QueryOf<typeof supervisionEndpoints, 'admin.supervision.items.list'>;

/** Below every `<iso>#<reference>` key. */
const LOWEST = '0';
const HOUR_MS = 3_600_000;

/**
 * Where the overdue key range ends: the end of the current hour, not `now`, because a cursor is bound to its Query's
 * range and must still resume a minute later; the items due between now and then are left out by the overdue filter.
 */
function overdueRangeEnd(now: Date): string {
  return new Date(Math.ceil((now.getTime() + 1) / HOUR_MS) * HOUR_MS).toISOString();
}

/**
 * The one Query a queue view needs, by what the filters fix (every filter is also applied to each item read, so the
 * choice of index changes the cost, never the answer):
 * - a period (from/to): the recording-time list over that key range, newest first;
 * - an assignee: that reviewer's own queue (outstanding items only; a Closed item has left it), soonest deadline first;
 * - a state other than Closed, or overdue: the outstanding queue, soonest deadline first (overdue: a deadline range);
 * - Closed: the closed items, latest closed first;
 * - nothing: the recording-time list, newest first.
 */
function queryOf(client: string, query: ItemListQuery, now: Date): QuerySpec {
  const period = timeRange(query.from, query.to);
  if (period !== undefined) return { ...keys.supervisionItem.byRecordingTime(client), sort: { between: period }, descending: true };
  if (query.assignee !== undefined && query.state !== 'Closed') return keys.supervisionItem.byAssignee(client, query.assignee);
  if (query.overdue === true) return { ...keys.supervisionItem.outstanding(client), sort: { between: [LOWEST, overdueRangeEnd(now)] } };
  if (query.state === 'Closed') return { ...keys.supervisionItem.closed(client), descending: true };
  if (query.state !== undefined) return keys.supervisionItem.outstanding(client);
  return { ...keys.supervisionItem.byRecordingTime(client), descending: true };
}

/** Every filter of the query, as a test of one stored item at `now` (an item retention disposed of is never listed). */
function matchesFilters(query: ItemListQuery, now: Date): (item: SupervisionItemStored) => boolean {
  const nowIso = now.toISOString();
  const from = query.from === undefined ? undefined : isoOf(query.from, 'start');
  const to = query.to === undefined ? undefined : isoOf(query.to, 'end');
  return (item) =>
    item.retention_state === undefined &&
    (query.state === undefined || item.state === query.state) &&
    (query.policy_reference === undefined || item.policy_references.includes(query.policy_reference)) &&
    (query.assignee === undefined || item.assignee === query.assignee) &&
    (query.device_user_reference === undefined || item.device_user_reference === query.device_user_reference) &&
    (query.group === undefined || item.group === query.group) &&
    (query.overdue === undefined || query.overdue === (item.state !== 'Closed' && item.due_at < nowIso)) &&
    (from === undefined || item.payload_time >= from) &&
    (to === undefined || item.payload_time <= to);
}

/**
 * The filters, then the caller's scopes (payload types and groups, for `supervision:ListItems`): the same for a page and
 * for `result_type=total`, so a count is the number of items the pages would show.
 */
function keepOf(caller: TenantCaller, query: ItemListQuery, now: Date): BatchFilter {
  const matches = matchesFilters(query, now);
  const scope = caller.payloadScope();
  return async (items: readonly TableItem[]) => {
    const matching = items.filter((item) => matches(readSupervisionItem(item)));
    return scope.filter(matching);
  };
}

/** `GET supervision/items`: a page of the queue, or with `result_type=total` its exact count, under the same filters and scopes. */
export async function listItems(caller: TenantCaller, query: ItemListQuery): Promise<Page<SupervisionItem> | CountOnly> {
  const now = caller.deps.clock.now();
  const { last_key, limit, result_type, ...filters } = query;
  return listPage(caller.deps, {
    client: caller.tenant,
    query: queryOf(caller.tenant, query, now),
    filters: { ...filters, types: caller.payloadScope().types.join(',') },
    page: { last_key, limit, result_type },
    keep: keepOf(caller, query, now),
    toData: (item) => toSupervisionItem(readSupervisionItem(item), now),
  });
}
