import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { readAlert } from './alert-actions.ts';
import { alertAccessFromContext, staffAlertAccess, type AlertAccess } from './alert-permissions.ts';
import { alertSummary } from './alert-summary.ts';
import { actorOf, actorRecordOf, alertKeysOf } from '#core/auth/actor.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, implementForTenant, type RouteInput } from '#core/http/route.ts';
import { clearAlerts, dismissAlerts } from './bulk-actions.ts';
import { listAlerts } from './list-alerts.ts';
import { notifyClients } from './notify.ts';
import { apiRecorders } from '../api-recorders.ts';

const list = endpointOf(alertEndpoints, 'admin.alerts.list');
const close = endpointOf(alertEndpoints, 'admin.alerts.close');
const dismiss = endpointOf(alertEndpoints, 'admin.alerts.dismiss');
const summary = endpointOf(alertEndpoints, 'admin.alerts.summary');
const get = endpointOf(alertEndpoints, 'admin.alerts.get');
const internalList = endpointOf(alertEndpoints, 'internal.alerts.list');
const notify = endpointOf(alertEndpoints, 'internal.alerts.notify');
const internalClose = endpointOf(alertEndpoints, 'internal.clients.alerts.close');
const internalDismiss = endpointOf(alertEndpoints, 'internal.clients.alerts.dismiss');
const internalGet = endpointOf(alertEndpoints, 'internal.clients.alerts.get');

/** Tenant surface: the caller's alert permissions from its roles. */
const tenantAccess = (input: Pick<RouteInput, 'principal' | 'access'>): AlertAccess => alertAccessFromContext({ ...alertKeysOf(input.principal), actor: actorRecordOf(input.principal) }, input.access);
/** Internal console: staff act as full-permission operators (the router admitted staff only). */
const staffAccess = (input: Pick<RouteInput, 'principal'>): AlertAccess => staffAlertAccess({ ...alertKeysOf(input.principal), actor: actorRecordOf(input.principal) });

export const routes = {
  [list.id]: implementForTenant(list, async (input, deps) => listAlerts(deps, input.client, tenantAccess(input), input.query)),
  [close.id]: implementForTenant(close, async (input, deps) => ({
    data: await clearAlerts(deps, input.client, tenantAccess(input), input.body, actorRecordOf(input.principal)),
  })),
  [dismiss.id]: implementForTenant(dismiss, async (input, deps) => ({
    data: await dismissAlerts(deps, input.client, tenantAccess(input), input.body.alert_references),
  })),
  [summary.id]: implementForTenant(summary, async (input, deps) => ({ data: await alertSummary(deps, input.client, tenantAccess(input)) })),
  [get.id]: implementForTenant(get, async (input, deps) => {
    const access = tenantAccess(input);
    const alert = await readAlert(deps, input.client, input.params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    if (!access.canRead(alert.alert_scope)) throw new ForbiddenError(`Not allowed to read ${alert.alert_scope} alerts`);
    return alert;
  }),
  [internalList.id]: implement(internalList, async (input, deps) => listAlerts(deps, ADMIN_CLIENT, staffAccess(input), input.query)),
  [notify.id]: implement(notify, async (input, deps) => ({ data: await notifyClients(deps, input.body, actorOf(input.principal)) })),
  [internalClose.id]: implementForTenant(internalClose, async (input, deps) => ({
    data: await clearAlerts(deps, input.client, staffAccess(input), input.body, actorRecordOf(input.principal)),
  })),
  [internalDismiss.id]: implementForTenant(internalDismiss, async (input, deps) => ({
    data: await dismissAlerts(deps, input.client, staffAccess(input), input.body.alert_references),
  })),
  [internalGet.id]: implementForTenant(internalGet, async (input, deps) => {
    const alert = await readAlert(deps, input.client, input.params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    return alert;
  }),
};

/** Lambda entry of the `alerts` endpoint group. */
export const handler = createApiHandler({ group: 'alerts', recorders: apiRecorders, endpoints: alertEndpoints, routes });
