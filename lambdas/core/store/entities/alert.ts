import * as z from 'zod';
import { Alert, type AlertOccurrence as AlertOccurrenceSchema } from '#shared/contract/entities/alerts.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes of an alert: the tenant's by last occurrence, by first occurrence, the Triggered ones by expiry. */
export const ALERT_INDEXES = { byLastOccurrence: 'gsi1', byFirstOccurrence: 'gsi2', expiring: 'gsi3' } as const;

/** An alert's own partition: the alert (`ALERT`) and its bounded ring of occurrences (`OCC#<slot>`). */
const alertPartition = (client: string, alertReference: string) => `${tenantPrefix(client)}ALERT#${part(alertReference)}`;
const OCCURRENCE_PREFIX = 'OCC#';

/**
 * Alerts (lambdas/alerts). An alert's own partition holds the alert and its ring of occurrences, so one Query reads
 * an alert whole. Lists: byLastOccurrence and byFirstOccurrence (the two date filters), both per tenant and across
 * scopes (scope is a filter of the list); expiring is the tenant's expiry queue, present only while a Triggered alert
 * has an expiry. The scoped-key pointer (alert-key.ts) and the summary counters (alert-counter.ts) live apart.
 */
export const alertKeys = {
  item: (client: string, alertReference: string, lastOccurrence: Date | string, firstOccurrence: Date | string = lastOccurrence): ItemKeys => ({
    ...alertKeys.key(client, alertReference),
    entity: ENTITY.alert,
    ...alertKeys.lastOccurrenceKeys(client, alertReference, lastOccurrence),
    ...alertKeys.firstOccurrenceKeys(client, alertReference, firstOccurrence),
  }),
  /** The byFirstOccurrence attributes (an occurrence that lost the race to create the alert may move them earlier). */
  firstOccurrenceKeys: (client: string, alertReference: string, firstOccurrence: Date | string) =>
    onIndex[ALERT_INDEXES.byFirstOccurrence](`${tenantPrefix(client)}ALERTS#BY_FIRST`, timeSort(firstOccurrence, alertReference)),
  /** The byLastOccurrence attributes, rewritten with each occurrence. */
  lastOccurrenceKeys: (client: string, alertReference: string, lastOccurrence: Date | string) =>
    onIndex[ALERT_INDEXES.byLastOccurrence](`${tenantPrefix(client)}ALERTS#BY_LAST`, timeSort(lastOccurrence, alertReference)),
  /** The attributes placing a Triggered alert in the tenant's expiry queue (removed when it clears). */
  expiryKeys: (client: string, alertReference: string, expiresAt: Date | string) =>
    onIndex[ALERT_INDEXES.expiring](`${tenantPrefix(client)}ALERTS#EXPIRY`, timeSort(expiresAt, alertReference)),
  key: (client: string, alertReference: string): ItemKey => ({ pk: alertPartition(client, alertReference), sk: 'ALERT' }),
  /** The alert's partition: the alert and its occurrences. */
  partition: (client: string, alertReference: string): ListKey => list(undefined, alertPartition(client, alertReference)),
  /** By last occurrence (the default date filter). */
  list: (client: string): ListKey => list(ALERT_INDEXES.byLastOccurrence, `${tenantPrefix(client)}ALERTS#BY_LAST`),
  listByFirstOccurrence: (client: string): ListKey => list(ALERT_INDEXES.byFirstOccurrence, `${tenantPrefix(client)}ALERTS#BY_FIRST`),
  /** Triggered alerts with an expiry, soonest first. */
  expiring: (client: string): ListKey => list(ALERT_INDEXES.expiring, `${tenantPrefix(client)}ALERTS#EXPIRY`),
};

/** The ring of an alert's occurrences, in the alert's partition (`AlertOccurrence`; its schema is below). */
export const alertOccurrenceKeys = {
  occurrencePrefix: OCCURRENCE_PREFIX,
  /** One slot of the ring of occurrences (slot = occurrence number modulo the ring size). */
  occurrence: (client: string, alertReference: string, slot: number): ItemKeys => ({
    pk: alertPartition(client, alertReference),
    sk: `${OCCURRENCE_PREFIX}${String(slot).padStart(4, '0')}`,
    entity: ENTITY.alertOccurrence,
  }),
  /** The occurrences of the alert whose partition is `alertPartitionKey` (retention removes them with the alert). */
  occurrencesIn: (alertPartitionKey: string): ListKey => ({ partition: alertPartitionKey, sort: { beginsWith: OCCURRENCE_PREFIX } }),
};

type AlertOccurrence = z.infer<typeof AlertOccurrenceSchema>;

/**
 * An alert as stored (lambdas/alerts): the contract's Alert fields as attributes of the `ALERT` item, plus two
 * bookkeeping numbers that make concurrent writes safe (lambdas/alerts/alert-model.ts has the why):
 * `occurrence_count` (ADDed per occurrence; it picks the ring slot) and `dismiss_count` (the dismissal version).
 */
export const alertItemSchema = /* @__PURE__ */ onFirstUse(() => Alert.omit({ occurrences: true }).extend({
  occurrence_count: z.number().optional(),
  dismiss_count: z.number().optional(),
}));
export type AlertItem = z.infer<ReturnType<typeof alertItemSchema>>;

export function readAlert(item: TableItem): AlertItem {
  return readItem('Alert', alertItemSchema(), item);
}

/** A new alert: on both occurrence lists, and in the tenant's expiry queue while it has an expiry. */
export function alertToItem(client: string, alert: AlertItem): TableItem {
  return {
    ...alertKeys.item(client, alert.alert_reference, alert.last_occurrence, alert.first_occurrence),
    ...(alert.expires_after === undefined ? {} : alertKeys.expiryKeys(client, alert.alert_reference, alert.expires_after)),
    ...alert,
  };
}

/** The contract Alert (the bookkeeping numbers left out), with its occurrences when they were read. */
export function toAlert(stored: AlertItem, occurrences?: AlertOccurrence[]): Alert {
  return Alert.parse({ ...stored, ...(occurrences === undefined ? {} : { occurrences }) });
}

/** One slot of an alert's ring of occurrences: occurrence number `seq`, when, and what it said. */
export const alertOccurrenceItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({ seq: z.number(), time: z.string(), message: z.string() }));
export type AlertOccurrenceItem = z.infer<ReturnType<typeof alertOccurrenceItemSchema>>;

export function readAlertOccurrence(item: TableItem): AlertOccurrenceItem {
  return readItem('AlertOccurrence', alertOccurrenceItemSchema(), item);
}

/** The slot item of occurrence `seq` (slot = (seq − 1) mod the ring size). */
export function alertOccurrenceToItem(client: string, alertReference: string, slot: number, occurrence: AlertOccurrenceItem): TableItem {
  return { ...alertOccurrenceKeys.occurrence(client, alertReference, slot), ...occurrence };
}

/**
 * The occurrences of the ring's slots, oldest first, at most `ring` (the latest). A slot that does not read is left
 * out rather than failing the alert: the alert itself stays readable, and the slot is overwritten by a later occurrence.
 */
export function toAlertOccurrences(slots: readonly TableItem[], ring: number): AlertOccurrence[] {
  return slots
    .flatMap((slot) => claimItem(alertOccurrenceItemSchema(), slot) ?? [])
    .sort((a, b) => a.seq - b.seq)
    .slice(-ring)
    .map(({ time, message }) => ({ time, message }));
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const alertModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.alert,
  title: 'Alert',
  module: 'alert.ts',
  indexes: ALERT_INDEXES,
  items: [
    {
      when: 'expiring while Triggered with an expiry',
      example: () => ({
        ...alertKeys.item(EXAMPLE_CLIENT, '<alert_reference>', '<last_occurrence>', '<first_occurrence>'),
        ...alertKeys.expiryKeys(EXAMPLE_CLIENT, '<alert_reference>', '<expires_at>'),
      }),
    },
  ],
  accessPatterns: [
    { name: 'Get an alert with its occurrences', serves: '`GET alerts/{alert_reference}`', builders: ['keys.alert.partition'], example: () => alertKeys.partition(EXAMPLE_CLIENT, '<alert_reference>') },
    { name: 'List alerts by last occurrence', serves: '`GET alerts`', builders: ['keys.alert.list'], example: () => alertKeys.list(EXAMPLE_CLIENT) },
    { name: 'List alerts by first occurrence', serves: '`GET alerts` (first-occurrence date filter)', builders: ['keys.alert.listByFirstOccurrence'], example: () => alertKeys.listByFirstOccurrence(EXAMPLE_CLIENT) },
    { name: 'Triggered alerts with an expiry, soonest first', serves: 'the alert expiry job', builders: ['keys.alert.expiring'], example: () => alertKeys.expiring(EXAMPLE_CLIENT) },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const alertOccurrenceModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.alertOccurrence,
  title: 'Alert occurrence (a ring of 50 slots)',
  module: 'alert.ts',
  indexes: {},
  items: [{ example: () => alertOccurrenceKeys.occurrence(EXAMPLE_CLIENT, '<alert_reference>', 7) }],
  accessPatterns: [
    {
      name: 'An alert\'s occurrences',
      serves: 'retention removes them with the alert',
      builders: ['keys.alert.occurrencesIn'],
      example: () => alertOccurrenceKeys.occurrencesIn(alertKeys.key(EXAMPLE_CLIENT, '<alert_reference>').pk),
    },
  ],
}));
