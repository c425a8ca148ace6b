import type { Actor } from '#shared/contract/entities/actor.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { TransactOperation } from '../core/ports/table-store.ts';
import { readAlert as readAlertItem, toAlert, type AlertItem } from '../core/store/entities/alert.ts';
import { keys } from '../core/store/keys.ts';
import { counterAttribute, dismissedUsers, occurrencesFromSlots, userId, type Alert } from './alert-model.ts';
import type { AlertsCaller } from './alert-permissions.ts';
import { retryOnConflict } from './retry.ts';

type Deps = Pick<Dependencies, 'table' | 'clock'>;

/** Who clears or dismisses: the tenant's caller (or a job) with its alert rights. */
export type ActingOnAlerts = AlertsCaller<Deps>;

/** Outcome of an action on one alert (one row of a BulkResult). */
export interface AlertActionOutcome {
  reference: string;
  ok: boolean;
  message?: string;
}

/** Reasons shown per reference. A refused alert of a scope the caller cannot read reads as missing: no leak. */
export const OUTCOME = {
  notFound: 'Alert not found',
  notAllowedToClear: 'Not allowed to clear alerts of this scope',
  alreadyCleared: 'Already cleared',
  alreadyDismissed: 'Already dismissed',
} as const;

/** One alert with its occurrences (one Query of its partition), or undefined when missing or not readable. */
export async function readAlert(deps: Pick<Deps, 'table'>, client: string, reference: string): Promise<Alert | undefined> {
  const page = await deps.table.query({ ...keys.alert.partition(client, reference), consistent: true, limit: 200 });
  const item = page.items.find((entry) => entry.sk === keys.alert.key(client, reference).sk);
  if (item === undefined) return undefined;
  const slots = page.items.filter((entry) => entry.sk.startsWith(keys.alert.occurrencePrefix));
  return toAlert(readAlertItem(item), occurrencesFromSlots(slots));
}

/** Condition: still Triggered and nobody dismissed it since we read it. */
const unchangedTriggered = (item: AlertItem) => ({
  kind: 'expression' as const,
  expression: '#st = :trig AND #dc = :dc',
  names: { '#st': 'alert_state', '#dc': 'dismiss_count' },
  values: { ':trig': 'Triggered', ':dc': item.dismiss_count ?? 0 },
});

/**
 * Clears a Triggered alert (close action Clear). In one transaction: the alert becomes Cleared (and leaves the
 * expiry queue), the tenant counter goes down, and so does the dismissed-counter of every user who had dismissed
 * it, on condition nobody dismissed it meanwhile (else we read again and redo). A cleared alert is left as it is.
 *
 * Limit: a transaction holds 100 writes, so an alert dismissed by more than 98 users cannot clear in one; that
 * refusal is reported per reference rather than leaving counters wrong.
 */
export async function clearAlert(caller: ActingOnAlerts, reference: string, { reason, clearedBy }: { reason: string; clearedBy: Actor }): Promise<AlertActionOutcome> {
  const { deps, tenant: client, alerts: access } = caller;
  return retryOnConflict(async () => {
    const stored = await deps.table.get(keys.alert.key(client, reference), { consistent: true });
    const item = stored === undefined ? undefined : readAlertItem(stored);
    if (item === undefined || !access.canRead(item.alert_scope)) return { reference, ok: false, message: OUTCOME.notFound };
    if (!access.canWrite(item.alert_scope)) return { reference, ok: false, message: OUTCOME.notAllowedToClear };
    if (item.alert_state !== 'Triggered') return { reference, ok: true, message: OUTCOME.alreadyCleared };
    const dismissed = dismissedUsers(item);
    if (dismissed.length > 98) return { reference, ok: false, message: 'Dismissed by too many users to clear at once' };
    const counter = counterAttribute(item.alert_scope, item.alert_severity);
    const operations: TransactOperation[] = [
      {
        kind: 'update',
        key: keys.alert.key(client, reference),
        update: {
          set: { alert_state: 'Cleared', cleared_reason: reason, cleared_at: deps.clock.now().toISOString(), cleared_by: clearedBy.reference, cleared_by_actor: clearedBy },
          remove: ['gsi3pk', 'gsi3sk'],
        },
        condition: unchangedTriggered(item),
      },
      { kind: 'update', key: keys.alert.tenantCounter(client), update: { add: { [counter]: -1 } } },
      ...dismissed.map(
        (user): TransactOperation => ({ kind: 'update', key: keys.alert.userCounter(client, user), update: { add: { [counter]: -1 } } }),
      ),
    ];
    await deps.table.transactWrite(operations);
    return { reference, ok: true };
  });
}

/**
 * Dismisses an alert for one user (adds them to `dismissed_by`; idempotent). Needs read on the alert's scope. On a
 * Triggered alert the user's dismissed-counter goes up in the same transaction, on condition the alert is unchanged.
 */
export async function dismissAlert(caller: ActingOnAlerts, reference: string): Promise<AlertActionOutcome> {
  const { deps, tenant: client, alerts: access } = caller;
  const user = userId(access.user);
  const mine = access.keys();
  return retryOnConflict(async () => {
    const stored = await deps.table.get(keys.alert.key(client, reference), { consistent: true });
    const item = stored === undefined ? undefined : readAlertItem(stored);
    if (item === undefined || !access.canRead(item.alert_scope)) return { reference, ok: false, message: OUTCOME.notFound };
    const dismissed = dismissedUsers(item);
    if (dismissed.some((key) => mine.includes(key))) return { reference, ok: true, message: OUTCOME.alreadyDismissed };
    // The spec's comma list keeps stable keys; the actors beside it name each person as they were when they dismissed.
    const actors = access.actor === undefined ? {} : { dismissed_by_actors: [...(item.dismissed_by_actors ?? []), access.actor] };
    const update = { set: { dismissed_by: [...dismissed, user].join(','), ...actors }, add: { dismiss_count: 1 } };
    if (item.alert_state === 'Triggered') {
      await deps.table.transactWrite([
        { kind: 'update', key: keys.alert.key(client, reference), update, condition: unchangedTriggered(item) },
        {
          kind: 'update',
          key: keys.alert.userCounter(client, user),
          update: { set: { entity: keys.alert.userCounter(client, user).entity }, add: { [counterAttribute(item.alert_scope, item.alert_severity)]: 1 } },
        },
      ]);
    } else {
      await deps.table.update(keys.alert.key(client, reference), update, {
        condition: {
          kind: 'expression',
          expression: '#st = :cleared AND #dc = :dc',
          names: { '#st': 'alert_state', '#dc': 'dismiss_count' },
          values: { ':cleared': 'Cleared', ':dc': item.dismiss_count ?? 0 },
        },
      });
    }
    return { reference, ok: true };
  });
}
