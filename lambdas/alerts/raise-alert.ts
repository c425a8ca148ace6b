import { ulid } from 'ulid';
import type { AlertKeyType, AlertScope, AlertSeverity, AlertType } from '#shared/constants/alerts.ts';
import type { RelatedEntity as RelatedEntitySchema } from '#shared/contract/entities/alerts.ts';
import type { z } from 'zod';

type RelatedEntity = z.infer<typeof RelatedEntitySchema>;
import type { Dependencies } from '../core/dependencies.ts';
import { ValidationError } from '../core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '../core/ports/table-store.ts';
import { keys } from '../core/store/keys.ts';
import { counterAttribute, OCCURRENCE_RING, type Alert } from './alert-model.ts';
import { alertOccurrenceToItem, alertToItem, readAlert, toAlert, type AlertItem } from '../core/store/entities/alert.ts';
import { dueMarkerItems } from '../account-data/public.ts';
import { alertKeyToItem, readAlertKey } from '../core/store/entities/alert-key.ts';
import { expiryInstant } from './expiry.ts';
import { relatedEntityString } from './related-entities.ts';
import { retryOnConflict } from './retry.ts';

/** What a module raises. */
export interface RaiseAlertInput {
  scope: AlertScope;
  type: AlertType;
  subject: string;
  /** Transient keys are kept for reference only; a Scoped key names the one open alert of its scope. */
  key: string;
  keyType: AlertKeyType;
  message: string;
  severity: AlertSeverity;
  relatedEntities?: RelatedEntity[];
  /** Seconds, or an ISO 8601 duration (expiry.ts): the alert clears as `Expired` that long after its last occurrence. */
  expiresAfter?: number | string;
  /** An absolute expiry instant instead (a staff notification's `expires_after`); it must be in the future. */
  expiresAt?: string;
  /** The `<area>:<Verb>` action the alert is about, when there is one. */
  apiAction?: string;
}

export interface RaiseAlertResult {
  alert: Alert;
  /** True when this call created the alert; false when it appended an occurrence to the open one. */
  created: boolean;
}

export type AlertEngineDeps = Pick<Dependencies, 'table' | 'clock'>;

/** The expiry instant of an occurrence at `now`, if any. */
function expiryOf(input: RaiseAlertInput, now: Date): string | undefined {
  if (input.expiresAt !== undefined) {
    const at = new Date(input.expiresAt);
    if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) throw new ValidationError(['expires_after: Must be a future time']);
    return at.toISOString();
  }
  return input.expiresAfter === undefined ? undefined : expiryInstant(now, input.expiresAfter);
}

/** Keeps stored text bounded whatever a caller passes (a device's message, an exception's text). */
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/**
 * Raises an alert in a tenant: the one way every module reports a problem (not an HTTP round trip).
 *
 * Transient: a new alert each time. Scoped: at most one Triggered alert per (scope, key). The key's pointer item
 * names the alert; a new alert is written in one transaction with the pointer (on condition the pointer is absent or
 * still names the alert this call saw), so racing raises create exactly one alert and the losers append to it. A
 * Cleared alert is never appended to: the next occurrence starts a new alert. The tenant counter of Triggered alerts
 * is ADDed in the same transaction as the new alert.
 */
export async function raiseAlert(deps: AlertEngineDeps, client: string, input: RaiseAlertInput): Promise<RaiseAlertResult> {
  const now = deps.clock.now();
  const message = clip(input.message, 4000);
  if (input.keyType === 'Transient') {
    return retryOnConflict(() => createAlert(deps, client, { input, now, scoped: undefined }));
  }
  const pointerKey = keys.alert.scopedKey(client, input.scope, input.key);
  return retryOnConflict(async () => {
    const pointer = await deps.table.get(pointerKey, { consistent: true });
    const open = pointer === undefined ? undefined : readAlertKey(pointer).alert_reference;
    if (open !== undefined) {
      const appended = await appendOccurrence(deps, { client, reference: open }, { input, message, now });
      if (appended !== undefined) return { alert: appended, created: false };
    }
    // No alert for the key yet, or it has cleared: start a new one, replacing exactly the pointer we saw.
    return createAlert(deps, client, { input, now, scoped: { previous: open } });
  });
}

/**
 * The writes that create a new alert (the alert, its first occurrence, its retention marker and the tenant counter):
 * for `createAlert`, and for a change that must not happen without its alert, which puts these in its own
 * transaction (`securityAlertWrites` in ./security-events.ts).
 */
export function newAlertWrites(client: string, input: RaiseAlertInput, now: Date): { operations: TransactOperation[]; alert: Alert } {
  const reference = ulid(now.getTime());
  const time = now.toISOString();
  const message = clip(input.message, 4000);
  const expiresAt = expiryOf(input, now);
  const related = input.relatedEntities ?? [];
  const alert: AlertItem = {
    client,
    alert_reference: reference,
    alert_scope: input.scope,
    alert_type: input.type,
    alert_subject: clip(input.subject, 500),
    alert_key: clip(input.key, 500),
    alert_key_type: input.keyType,
    alert_message: message,
    alert_state: 'Triggered',
    alert_severity: input.severity,
    ...(expiresAt === undefined ? {} : { expires_after: expiresAt }),
    ...(input.apiAction === undefined ? {} : { api_action: input.apiAction }),
    related_entities: related,
    ...(relatedEntityString(related) === undefined ? {} : { related_entity_string: relatedEntityString(related) }),
    first_occurrence: time,
    last_occurrence: time,
    occurrence_count: 1,
    dismiss_count: 0,
  };
  const operations: TransactOperation[] = [
    { kind: 'put', item: alertToItem(client, alert), condition: { kind: 'item-not-exists' } },
    { kind: 'put', item: alertOccurrenceToItem(client, reference, 0, { seq: 1, time, message }) },
    // Its retention marker (lambdas/account-data/retention/due-index.ts); the job moves it on as the alert recurs.
    ...dueMarkerItems(client, alertToItem(client, alert)).map((marker) => ({ kind: 'put' as const, item: marker })),
    {
      kind: 'update',
      key: keys.alert.tenantCounter(client),
      update: { set: { entity: keys.alert.tenantCounter(client).entity }, add: { [counterAttribute(input.scope, input.severity)]: 1 } },
    },
  ];
  return { operations, alert: toAlert(alert, [{ time, message }]) };
}

async function createAlert(
  deps: AlertEngineDeps,
  client: string,
  { input, now, scoped }: { input: RaiseAlertInput; now: Date; scoped: { previous: string | undefined } | undefined },
): Promise<RaiseAlertResult> {
  const { operations, alert } = newAlertWrites(client, input, now);
  if (scoped !== undefined) {
    operations.push({
      kind: 'put',
      item: alertKeyToItem(client, { client, alert_scope: input.scope, alert_key: input.key, alert_reference: alert.alert_reference }),
      condition:
        scoped.previous === undefined
          ? { kind: 'item-not-exists' }
          : { kind: 'expression', expression: '#ref = :previous', names: { '#ref': 'alert_reference' }, values: { ':previous': scoped.previous } },
    });
  }
  await deps.table.transactWrite(operations);
  return { alert, created: true };
}

/**
 * Appends an occurrence to a Triggered alert; undefined when the alert is not (or no longer) Triggered. The alert's
 * count is ADDed atomically (the new count picks the ring slot), so concurrent occurrences never overwrite each
 * other's count; `last_occurrence` only moves forward and `first_occurrence` only backward, so both stay exact
 * whatever order racing occurrences land in.
 */
async function appendOccurrence(
  deps: AlertEngineDeps,
  { client, reference }: { client: string; reference: string },
  { input, message, now }: { input: RaiseAlertInput; message: string; now: Date },
): Promise<Alert | undefined> {
  const time = now.toISOString();
  const key = keys.alert.key(client, reference);
  const triggered = { '#st': 'alert_state' };
  let updated: TableItem | undefined;
  try {
    const expiresAt = expiryOf(input, now);
    updated = await deps.table.update(
      key,
      {
        set: {
          last_occurrence: time,
          alert_message: message,
          ...keys.alert.lastOccurrenceKeys(client, reference, time),
          ...(expiresAt === undefined ? {} : { expires_after: expiresAt, ...keys.alert.expiryKeys(client, reference, expiresAt) }),
        },
        add: { occurrence_count: 1 },
      },
      {
        condition: {
          kind: 'expression',
          expression: '#st = :trig AND #lo <= :now',
          names: { ...triggered, '#lo': 'last_occurrence' },
          values: { ':trig': 'Triggered', ':now': time },
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    try {
      // Either it is no longer Triggered, or a later occurrence got there first: then only count this one.
      updated = await deps.table.update(
        key,
        { add: { occurrence_count: 1 } },
        { condition: { kind: 'expression', expression: '#st = :trig', names: triggered, values: { ':trig': 'Triggered' } } },
      );
    } catch (again) {
      if (again instanceof ConditionFailedError) return undefined;
      throw again;
    }
  }
  if (updated === undefined) return undefined;
  // This occurrence's number, from our own ADD: later reads may already include others' occurrences.
  const counted = readAlert(updated);
  const seq = counted.occurrence_count ?? 1;
  if (counted.first_occurrence > time) {
    // This occurrence's clock is older than the alert's creation (it lost the race to create it): it is the first.
    try {
      updated = await deps.table.update(
        key,
        { set: { first_occurrence: time, ...keys.alert.firstOccurrenceKeys(client, reference, time) } },
        { condition: { kind: 'expression', expression: '#fo > :now', names: { '#fo': 'first_occurrence' }, values: { ':now': time } } },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  if (updated === undefined) return undefined;
  // The ring keeps the latest OCCURRENCE_RING: a slot is only overwritten by a later occurrence.
  try {
    await deps.table.put(
      alertOccurrenceToItem(client, reference, (seq - 1) % OCCURRENCE_RING, { seq, time, message }),
      {
        condition: {
          kind: 'expression',
          expression: 'attribute_not_exists(#seq) OR #seq < :seq',
          names: { '#seq': 'seq' },
          values: { ':seq': seq },
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  return toAlert(readAlert(updated));
}
