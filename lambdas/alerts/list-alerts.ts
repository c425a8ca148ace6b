import type { AlertDateFilter, AlertScope, AlertSeverity, AlertState, AlertType } from '#shared/constants/alerts.ts';
import { dismissedUsers, toAlert, userId, type Alert } from './alert-model.ts';
import type { AlertAccess } from './alert-permissions.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { timeRangeOrAll } from '#core/store/time-range.ts';

/** The list query as the contract parses it. */
export interface AlertListQuery {
  last_key?: string | undefined;
  limit: number;
  result_type: 'page' | 'total';
  from?: string | undefined;
  to?: string | undefined;
  date_filter: AlertDateFilter;
  alert_scope?: AlertScope | undefined;
  alert_severity?: AlertSeverity | undefined;
  alert_state?: AlertState | undefined;
  alert_type?: AlertType | undefined;
  active_only?: boolean | undefined;
}

/** DynamoDB reads one page may spend looking for matches before it answers with what it found and a cursor. */
const MAX_READS = 10;
/** A total is counted by reading the list's keys: capped so one call cannot read without end. */
const MAX_TOTAL_READS = 100;

/**
 * Alerts newest first on the date filter's index (gsi1 last occurrence, gsi2 first occurrence), with the date range
 * as a key condition. Scope (and the caller's read permission), state, severity, type and active-only are filters
 * over the page, as a FilterExpression would be: a page may hold fewer than `limit` alerts and still carry a cursor.
 * The cursor is bound to the tenant, the index and every filter, and to the caller's readable scopes.
 */
export async function listAlerts(
  deps: Pick<Dependencies, 'table' | 'cursors'>,
  client: string,
  access: AlertAccess,
  query: AlertListQuery,
): Promise<Page<Alert> | { count: number }> {
  const list = query.date_filter === 'first_occurrence' ? keys.alert.listByFirstOccurrence(client) : keys.alert.list(client);
  const indexKeys = TABLE_KEYS.indexes.find((index) => index.name === list.index) as (typeof TABLE_KEYS.indexes)[number];
  const scopes = access.readableScopes().filter((scope) => query.alert_scope === undefined || query.alert_scope === scope);
  const me = userId(access.user);
  const matches = (item: TableItem) =>
    scopes.includes(item.alert_scope as AlertScope) &&
    (query.alert_severity === undefined || item.alert_severity === query.alert_severity) &&
    (query.alert_state === undefined || item.alert_state === query.alert_state) &&
    (query.alert_type === undefined || item.alert_type === query.alert_type) &&
    (query.active_only !== true || (item.alert_state === 'Triggered' && !dismissedUsers(item).includes(me)));
  const binding = {
    client,
    query: describeQuery(list, {
      from: query.from,
      to: query.to,
      scopes: scopes.join(','),
      severity: query.alert_severity,
      state: query.alert_state,
      type: query.alert_type,
      active_only: query.active_only,
      user: query.active_only === true ? me : undefined,
    }),
  };
  const sort = { between: timeRangeOrAll(query.from, query.to) };
  if (scopes.length === 0) return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };

  let startKey = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  if (query.result_type === 'total') {
    let count = 0;
    for (let reads = 0; reads < MAX_TOTAL_READS; reads += 1) {
      const page = await deps.table.query({ ...list, sort, descending: true, limit: 1000, ...(startKey ? { startKey } : {}) });
      count += page.items.filter(matches).length;
      if (page.lastKey === undefined) break;
      startKey = page.lastKey;
    }
    return { count };
  }

  const found: TableItem[] = [];
  let more: Record<string, string> | undefined;
  for (let reads = 0; reads < MAX_READS; reads += 1) {
    // Read at least a useful batch: filters drop items, and the cursor resumes after the last alert shown anyway.
    const page = await deps.table.query({ ...list, sort, descending: true, limit: Math.max(query.limit, 100), ...(startKey ? { startKey } : {}) });
    for (const item of page.items) {
      if (!matches(item)) continue;
      found.push(item);
      if (found.length === query.limit) break;
    }
    if (found.length === query.limit) {
      // Resume after the last alert shown (unless that was the very last item of the list).
      const last = found[found.length - 1] as TableItem;
      const lastOfPage = page.items[page.items.length - 1] === last;
      more = lastOfPage && page.lastKey === undefined ? undefined : keyOf(last, indexKeys);
      break;
    }
    more = page.lastKey;
    if (page.lastKey === undefined) break;
    startKey = page.lastKey;
  }
  const data = found.map((item) => toAlert(item));
  return { count: data.length, data, ...(more === undefined ? {} : { last_key: deps.cursors.encode(more, binding) }) };
}

/** The start key of an item on an index: its table key and the index's keys. */
function keyOf(item: TableItem, index: { partitionKey: string; sortKey: string }): Record<string, string> {
  return {
    pk: item.pk,
    sk: item.sk,
    [index.partitionKey]: String(item[index.partitionKey]),
    [index.sortKey]: String(item[index.sortKey]),
  };
}
