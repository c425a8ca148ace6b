import type { Dependencies } from '../core/dependencies.ts';
import { keys } from '../core/store/keys.ts';
import { readAlert } from '../core/store/entities/alert.ts';
import { jobActor } from '../core/auth/actor.ts';
import { clearAlert } from './alert-actions.ts';
import { staffAlertAccess } from './alert-permissions.ts';
import { allClients } from '../core/store/all-clients.ts';
import { eachPage } from '../core/store/paging.ts';

/** The reason an alert cleared by the expiry job carries. */
export const EXPIRED_REASON = 'Expired';

/**
 * Clears every Triggered alert of a tenant whose `expires_after` has passed: a Query on the tenant's expiry queue
 * (gsi3, soonest first) up to now, never a Scan. Clearing removes the alert from the queue, with the counters kept
 * exact as for a user's clear. Returns how many it cleared.
 */
export async function expireTenantAlerts(deps: Pick<Dependencies, 'table' | 'clock'>, client: string): Promise<number> {
  const now = deps.clock.now().toISOString();
  const expiry = jobActor('alerts-expiry');
  // The job acts on the tenant's alerts as a full-permission operator would.
  const operator = { deps, tenant: client, alerts: staffAlertAccess(expiry.reference) };
  let cleared = 0;
  for await (const page of eachPage(deps.table, { ...keys.alert.expiring(client), sort: { between: ['0', `${now}~`] } }, 100)) {
    for (const alert of page.map(readAlert)) {
      if (alert.expires_after === undefined || alert.expires_after > now) continue;
      const outcome = await clearAlert(operator, alert.alert_reference, { reason: EXPIRED_REASON, clearedBy: expiry });
      if (outcome.ok && outcome.message === undefined) cleared += 1;
    }
  }
  return cleared;
}

/** Every client's expired alerts (the client list is a Query too), and the provider's own. */
export async function expireDueAlerts(deps: Pick<Dependencies, 'table' | 'clock'>): Promise<{ clients: number; cleared: number }> {
  const clients = new Set<string>(['admin']);
  for await (const client of allClients(deps.table)) clients.add(client);
  let cleared = 0;
  for (const client of clients) cleared += await expireTenantAlerts(deps, client);
  return { clients: clients.size, cleared };
}
