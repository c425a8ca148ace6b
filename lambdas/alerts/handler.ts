import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { readAlert } from './alert-actions.ts';
import { alertAccessFromContext, staffAlertAccess, type AlertAccess } from './alert-permissions.ts';
import { alertSummary } from './alert-summary.ts';
import { ADMIN_CLIENT, type Principal } from '#core/auth/principal.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { clearAlerts, dismissAlerts } from './bulk-actions.ts';
import { listAlerts } from './list-alerts.ts';
import { notifyClients } from './notify.ts';

/**
 * The group's endpoints in the contract's order (contract ids are plain strings to the type system, so the order
 * types each route); `named` checks at load that each is the endpoint its name says.
 */
const [list, close, dismiss, summary, get, internalList, notify, internalClose, internalDismiss, internalGet] = alertEndpoints;

function named(endpoint: { id: string }, id: string): void {
  if (endpoint.id !== id) throw new Error(`alerts handler expected ${id}, found ${endpoint.id}`);
}
named(list, 'admin.alerts.list');
named(close, 'admin.alerts.close');
named(dismiss, 'admin.alerts.dismiss');
named(summary, 'admin.alerts.summary');
named(get, 'admin.alerts.get');
named(internalList, 'internal.alerts.list');
named(notify, 'internal.alerts.notify');
named(internalClose, 'internal.clients.alerts.close');
named(internalDismiss, 'internal.clients.alerts.dismiss');
named(internalGet, 'internal.clients.alerts.get');

/** Who acts, as alerts record it (`dismissed_by`, `cleared_by`): the token's email, else its subject. */
function actorOf(principal: Principal | undefined): string {
  if (principal === undefined || principal.kind === 'device') return 'unknown';
  if (principal.kind === 'client-app') return `app:${principal.appReference}`;
  return principal.email ?? principal.subject;
}

/** Tenant surface: the caller's alert permissions from its roles. */
const tenantAccess = (input: RouteInput): AlertAccess => alertAccessFromContext(actorOf(input.principal), input.access);
/** Internal console: staff act as full-permission operators (the router admitted staff only). */
const staffAccess = (input: RouteInput): AlertAccess => staffAlertAccess(actorOf(input.principal));
const clientOf = (input: RouteInput): string => input.client as string;

export const routes = {
  [list.id]: implement(list, async (input, deps) => listAlerts(deps, clientOf(input), tenantAccess(input), input.query)),
  [close.id]: implement(close, async (input, deps) => ({
    data: await clearAlerts(deps, clientOf(input), tenantAccess(input), input.body),
  })),
  [dismiss.id]: implement(dismiss, async (input, deps) => ({
    data: await dismissAlerts(deps, clientOf(input), tenantAccess(input), input.body.alert_references),
  })),
  [summary.id]: implement(summary, async (input, deps) => ({ data: await alertSummary(deps, clientOf(input), tenantAccess(input)) })),
  [get.id]: implement(get, async (input, deps) => {
    const access = tenantAccess(input);
    const alert = await readAlert(deps, clientOf(input), input.params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    if (!access.canRead(alert.alert_scope)) throw new ForbiddenError(`Not allowed to read ${alert.alert_scope} alerts`);
    return alert;
  }),
  [internalList.id]: implement(internalList, async (input, deps) => listAlerts(deps, ADMIN_CLIENT, staffAccess(input), input.query)),
  [notify.id]: implement(notify, async (input, deps) => ({ data: await notifyClients(deps, input.body, actorOf(input.principal)) })),
  [internalClose.id]: implement(internalClose, async (input, deps) => ({
    data: await clearAlerts(deps, clientOf(input), staffAccess(input), input.body),
  })),
  [internalDismiss.id]: implement(internalDismiss, async (input, deps) => ({
    data: await dismissAlerts(deps, clientOf(input), staffAccess(input), input.body.alert_references),
  })),
  [internalGet.id]: implement(internalGet, async (input, deps) => {
    const alert = await readAlert(deps, clientOf(input), input.params.alert_reference);
    if (alert === undefined) throw new NotFoundError('Alert not found');
    return alert;
  }),
};

/** Lambda entry of the `alerts` endpoint group. */
export const handler = createApiHandler({ group: 'alerts', endpoints: alertEndpoints, routes });
