import type { Dependencies } from '../core/dependencies.ts';
import type { TableItem } from '../core/ports/table-store.ts';
import { keys } from '../core/store/keys.ts';
import { clearAlert } from './alert-actions.ts';
import { staffAlertAccess } from './alert-permissions.ts';
import { allClients } from '../core/store/all-clients.ts';

/** The reason an alert cleared by the expiry job carries. */
export const EXPIRED_REASON = 'Expired';

/**
 * Clears every Triggered alert of a tenant whose `expires_after` has passed: a Query on the tenant's expiry queue
 * (gsi3, soonest first) up to now, never a Scan. Clearing removes the alert from the queue, with the counters kept
 * exact as for a user's clear. Returns how many it cleared.
 */
export async function expireTenantAlerts(deps: Pick<Dependencies, 'table' | 'clock'>, client: string): Promise<number> {
  const now = deps.clock.now().toISOString();
  const operator = staffAlertAccess('system');
  let cleared = 0;
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({
      ...keys.alert.expiring(client),
      sort: { between: ['0', `${now}~`] },
      limit: 100,
      ...(startKey ? { startKey } : {}),
    });
    for (const item of page.items as TableItem[]) {
      if (typeof item.expires_after !== 'string' || item.expires_after > now) continue;
      const outcome = await clearAlert(deps, client, String(item.alert_reference), operator, EXPIRED_REASON, 'system');
      if (outcome.ok && outcome.message === undefined) cleared += 1;
    }
    startKey = page.lastKey;
  } while (startKey !== undefined);
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
