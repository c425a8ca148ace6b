import type { NotificationEvent } from '#shared/contract/entities/alerts.ts';
import { raiseAlert } from './raise-alert.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { actorOf } from '#core/auth/actor.ts';
import type { Caller } from '#core/http/caller.ts';
import { ValidationError } from '#core/errors.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { keys } from '#core/store/keys.ts';
import { readAccount } from '#core/store/entities/account.ts';
import type { z } from 'zod';
import { allClients } from '#core/store/all-clients.ts';

type Event = z.infer<typeof NotificationEvent>;
type Outcome = { reference: string; ok: boolean; message?: string };

/** The clients a notification goes to: the listed ones (each checked to exist), or all of them (a Query). */
async function targets(deps: Pick<Dependencies, 'table'>, event: Event): Promise<{ found: string[]; missing: string[] }> {
  if (event.clients !== undefined) {
    const unique = [...new Set(event.clients)];
    const found = new Set(
      (await deps.table.batchGet(unique.map((client) => keys.account.item(client)))).map((item) => readAccount(item).client),
    );
    return { found: unique.filter((client) => found.has(client)), missing: unique.filter((client) => !found.has(client)) };
  }
  const found: string[] = [];
  for await (const client of allClients(deps.table)) found.push(client);
  return { found, missing: [] };
}

/**
 * A staff notification: one Transient alert of type Notification in each target client (reference = the client in
 * the BulkResult), and a copy in the provider's own alerts so the internal list shows what was sent.
 */
export async function notifyClients(caller: Pick<Caller, 'deps' | 'principal' | 'action'>, event: Event): Promise<Outcome[]> {
  const { deps } = caller;
  const sentBy = actorOf(caller.principal);
  if (event.expires_after !== undefined) {
    const at = Date.parse(event.expires_after);
    if (Number.isNaN(at) || at <= deps.clock.now().getTime()) throw new ValidationError(['body.expires_after: Must be a future time']);
  }
  const { found, missing } = await targets(deps, event);
  const raise = (client: string) =>
    raiseAlert(deps, client, {
      scope: event.scope,
      type: 'Notification',
      subject: 'Notification',
      key: `notification:${sentBy}`,
      keyType: 'Transient',
      message: event.message,
      severity: event.severity,
      apiAction: caller.action,
      ...(event.expires_after === undefined ? {} : { expiresAt: event.expires_after }),
    });
  const outcomes: Outcome[] = [];
  // A few at a time: a broadcast to every client must not open hundreds of writes at once.
  for (let start = 0; start < found.length; start += 10) {
    const batch = found.slice(start, start + 10);
    const settled = await Promise.allSettled(batch.map(raise));
    settled.forEach((result, index) =>
      outcomes.push(
        result.status === 'fulfilled'
          ? { reference: batch[index] as string, ok: true }
          : { reference: batch[index] as string, ok: false, message: 'Not delivered' },
      ),
    );
  }
  for (const client of missing) outcomes.push({ reference: client, ok: false, message: 'Client not found' });
  if (!found.includes(ADMIN_CLIENT)) await raise(ADMIN_CLIENT);
  return outcomes;
}
