import { dismissedUsers, type Alert } from './alert-model.ts';
import { readAlert, toAlert, type AlertItem } from '#core/store/entities/alert.ts';
import type { AlertsCaller } from './alert-permissions.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { Page } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, notDeletedByRetention, perItem, type QueryOf } from '#core/store/paging.ts';
import type { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { timeRangeOrAll } from '#core/store/time-range.ts';

/** The list query as the contract parses it (the internal console's list takes the same query). */
export type AlertListQuery = QueryOf<typeof alertEndpoints, 'admin.alerts.list'>;

/**
 * Alerts newest first on the date filter's index (gsi1 last occurrence, gsi2 first occurrence), with the date range
 * as a key condition. Scope (and the caller's read permission), state, severity, type and active-only are filters
 * while paging (core/store/paging.ts): a page may hold fewer than `limit` alerts and still carry a cursor, and a
 * total is exact or refused. The cursor is bound to the tenant, the index, the range, every filter and the caller's
 * readable scopes.
 */
export async function listAlerts(caller: AlertsCaller<Pick<Dependencies, 'table' | 'cursors'>>, query: AlertListQuery): Promise<Page<Alert> | { count: number }> {
  const { deps, tenant: client, alerts: access } = caller;
  const list = query.date_filter === 'first_occurrence' ? keys.alert.listByFirstOccurrence(client) : keys.alert.list(client);
  const scopes = access.readableScopes().filter((scope) => query.alert_scope === undefined || query.alert_scope === scope);
  const mine = access.keys();
  const matches = (alert: AlertItem) =>
    scopes.includes(alert.alert_scope) &&
    (query.alert_severity === undefined || alert.alert_severity === query.alert_severity) &&
    (query.alert_state === undefined || alert.alert_state === query.alert_state) &&
    (query.alert_type === undefined || alert.alert_type === query.alert_type) &&
    (query.active_only !== true || (alert.alert_state === 'Triggered' && !dismissedUsers(alert).some((key) => mine.includes(key))));
  if (scopes.length === 0) return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };
  return listPage(deps, {
    client,
    query: { ...list, sort: { between: timeRangeOrAll(query.from, query.to) }, descending: true },
    filters: {
      scopes: scopes.join(','),
      severity: query.alert_severity,
      state: query.alert_state,
      type: query.alert_type,
      active_only: query.active_only,
      user: query.active_only === true ? access.user : undefined,
    },
    page: query,
    keep: perItem((item) => notDeletedByRetention(item) && matches(readAlert(item))),
    toData: (item) => toAlert(readAlert(item)),
  });
}
