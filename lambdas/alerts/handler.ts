import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { readAlert } from './alert-actions.ts';
import { alertAccessFromContext, staffAlertAccess, type AlertsCaller } from './alert-permissions.ts';
import { alertSummary } from './alert-summary.ts';
import { actorRecordOf, alertKeysOf } from '#core/auth/actor.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import type { Caller, TenantCaller } from '#core/http/caller.ts';
import { implement, implementForTenant } from '#core/http/route.ts';
import type { Dependencies } from '#core/dependencies.ts';
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

/** Tenant surface: the caller with its alert permissions from its roles. */
const tenantAlerts = (caller: TenantCaller): AlertsCaller<Dependencies> => ({
  deps: caller.deps,
  tenant: caller.tenant,
  alerts: alertAccessFromContext({ ...alertKeysOf(caller.principal), actor: actorRecordOf(caller.principal) }, caller.access),
});
/** Internal console: staff act on `tenant`'s alerts as full-permission operators (the router admitted staff only). */
const staffAlerts = (caller: Caller, tenant: string): AlertsCaller<Dependencies> => ({
  deps: caller.deps,
  tenant,
  alerts: staffAlertAccess({ ...alertKeysOf(caller.principal), actor: actorRecordOf(caller.principal) }),
});

export const routes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listAlerts(tenantAlerts(caller), query)),
  [close.id]: implementForTenant(close, async ({ caller, body }) => ({ data: await clearAlerts(tenantAlerts(caller), body, actorRecordOf(caller.principal)) })),
  [dismiss.id]: implementForTenant(dismiss, async ({ caller, body }) => ({ data: await dismissAlerts(tenantAlerts(caller), body.alert_references) })),
  [summary.id]: implementForTenant(summary, async ({ caller }) => ({ data: await alertSummary(tenantAlerts(caller)) })),
  [get.id]: implementForTenant(get, async ({ caller, params }) => {
    const { alerts } = tenantAlerts(caller);
    const alert = await readAlert(caller.deps, caller.tenant, params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    if (!alerts.canRead(alert.alert_scope)) throw new ForbiddenError(`Not allowed to read ${alert.alert_scope} alerts`);
    return alert;
  }),
  [internalList.id]: implement(internalList, ({ caller, query }) => listAlerts(staffAlerts(caller, ADMIN_CLIENT), query)),
  [notify.id]: implement(notify, async ({ caller, body }) => ({ data: await notifyClients(caller, body) })),
  [internalClose.id]: implementForTenant(internalClose, async ({ caller, body }) => ({
    data: await clearAlerts(staffAlerts(caller, caller.tenant), body, actorRecordOf(caller.principal)),
  })),
  [internalDismiss.id]: implementForTenant(internalDismiss, async ({ caller, body }) => ({
    data: await dismissAlerts(staffAlerts(caller, caller.tenant), body.alert_references),
  })),
  [internalGet.id]: implementForTenant(internalGet, async ({ caller, params }) => {
    const alert = await readAlert(caller.deps, caller.tenant, params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    return alert;
  }),
};

/** Lambda entry of the `alerts` endpoint group. */
export const handler = createApiHandler({ group: 'alerts', recorders: apiRecorders, endpoints: alertEndpoints, routes });
