import { AlertDateFilter, AlertScope, AlertSeverity, AlertState, AlertType } from '../../constants/alerts.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  Alert,
  AlertCloseRequest,
  AlertDismissRequest,
  AlertSummaryResponse,
  BulkResult,
  NotificationEvent,
} from '../entities/alerts.ts';
import { pageOrTotal } from '../entities/common.ts';
import { QueryBoolean } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

/** Alert list filters: date range on first or last occurrence, scope, severity, state, type, active only. */
const alertListQuery = listQuery({
  ...dateRangeQuery,
  date_filter: AlertDateFilter.default('last_occurrence'),
  alert_scope: AlertScope.optional(),
  alert_severity: AlertSeverity.optional(),
  alert_state: AlertState.optional(),
  alert_type: AlertType.optional(),
  /** Only Triggered alerts the caller has not dismissed. */
  active_only: QueryBoolean.optional(),
});

const admin = { surface: 'admin', auth: 'user', group: 'alerts' } as const;
const internal = { surface: 'internal', auth: 'user', group: 'alerts' } as const;

export const alertEndpoints = [
  defineEndpoint({
    ...admin,
    id: 'admin.alerts.list',
    method: 'GET',
    path: '/alerts',
    action: 'alerts:List',
    summary: 'Alerts of the client the caller may read (by scope).',
    query: alertListQuery,
    response: pageOrTotal(Alert),
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.alerts.close',
    method: 'PUT',
    path: '/alerts',
    action: 'alerts:Clear',
    summary: 'Clear 1 to 100 alerts.',
    body: AlertCloseRequest,
    response: BulkResult,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.alerts.dismiss',
    method: 'PUT',
    path: '/alerts/dismiss',
    action: 'alerts:Dismiss',
    summary: 'Dismiss 1 to 100 alerts for the calling user.',
    body: AlertDismissRequest,
    response: BulkResult,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.alerts.summary',
    method: 'GET',
    path: '/alerts/summary',
    action: 'alerts:Summary',
    summary: 'Counts of non-dismissed Triggered alerts by scope and severity.',
    response: AlertSummaryResponse,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.alerts.get',
    method: 'GET',
    path: '/alerts/{alert_reference}',
    action: 'alerts:Read',
    summary: 'One alert with its occurrences.',
    params: params('alert_reference'),
    response: Alert,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.alerts.list',
    method: 'GET',
    path: '/alerts',
    action: 'internal:ListAlerts',
    summary: "The provider's own alerts (platform and notification events).",
    query: alertListQuery,
    response: pageOrTotal(Alert),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.alerts.notify',
    method: 'POST',
    path: '/alerts',
    action: 'internal:Notify',
    summary: 'Broadcast a notification event to some or all clients.',
    body: NotificationEvent,
    response: BulkResult,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.alerts.close',
    method: 'PUT',
    path: '/clients/{client}/alerts',
    action: 'internal:ClearAlerts',
    summary: "Clear 1 to 100 of a client's alerts.",
    body: AlertCloseRequest,
    response: BulkResult,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.alerts.dismiss',
    method: 'PUT',
    path: '/clients/{client}/alerts/dismiss',
    action: 'internal:DismissAlerts',
    summary: "Dismiss 1 to 100 of a client's alerts for the calling staff member.",
    body: AlertDismissRequest,
    response: BulkResult,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.alerts.get',
    method: 'GET',
    path: '/clients/{client}/alerts/{alert_reference}',
    action: 'internal:ReadAlert',
    summary: "One of a client's alerts.",
    params: params('alert_reference'),
    response: Alert,
  }),
] as const;
