import * as z from 'zod';
import { Alert, type AlertOccurrence as AlertOccurrenceSchema } from '#shared/contract/entities/alerts.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { claimItem, readItem } from './read-item.ts';

type AlertOccurrence = z.infer<typeof AlertOccurrenceSchema>;

/**
 * An alert as stored (lambdas/alerts): the contract's Alert fields as attributes of the `ALERT` item, plus two
 * bookkeeping numbers that make concurrent writes safe (lambdas/alerts/alert-model.ts has the why):
 * `occurrence_count` (ADDed per occurrence; it picks the ring slot) and `dismiss_count` (the dismissal version).
 */
export const AlertItem = Alert.omit({ occurrences: true }).extend({
  occurrence_count: z.number().optional(),
  dismiss_count: z.number().optional(),
});
export type AlertItem = z.infer<typeof AlertItem>;

export function readAlert(item: TableItem): AlertItem {
  return readItem('Alert', AlertItem, item);
}

/** A new alert: on both occurrence lists, and in the tenant's expiry queue while it has an expiry. */
export function alertToItem(client: string, alert: AlertItem): TableItem {
  return {
    ...keys.alert.item(client, alert.alert_reference, alert.last_occurrence, alert.first_occurrence),
    ...(alert.expires_after === undefined ? {} : keys.alert.expiryKeys(client, alert.alert_reference, alert.expires_after)),
    ...alert,
  };
}

/** The contract Alert (the bookkeeping numbers left out), with its occurrences when they were read. */
export function toAlert(stored: AlertItem, occurrences?: AlertOccurrence[]): Alert {
  return Alert.parse({ ...stored, ...(occurrences === undefined ? {} : { occurrences }) });
}

/** One slot of an alert's ring of occurrences: occurrence number `seq`, when, and what it said. */
export const AlertOccurrenceItem = z.object({ seq: z.number(), time: z.string(), message: z.string() });
export type AlertOccurrenceItem = z.infer<typeof AlertOccurrenceItem>;

export function readAlertOccurrence(item: TableItem): AlertOccurrenceItem {
  return readItem('AlertOccurrence', AlertOccurrenceItem, item);
}

/** The slot item of occurrence `seq` (slot = (seq − 1) mod the ring size). */
export function alertOccurrenceToItem(client: string, alertReference: string, slot: number, occurrence: AlertOccurrenceItem): TableItem {
  return { ...keys.alert.occurrence(client, alertReference, slot), ...occurrence };
}

/**
 * The occurrences of the ring's slots, oldest first, at most `ring` (the latest). A slot that does not read is left
 * out rather than failing the alert: the alert itself stays readable, and the slot is overwritten by a later occurrence.
 */
export function toAlertOccurrences(slots: readonly TableItem[], ring: number): AlertOccurrence[] {
  return slots
    .flatMap((slot) => claimItem(AlertOccurrenceItem, slot) ?? [])
    .sort((a, b) => a.seq - b.seq)
    .slice(-ring)
    .map(({ time, message }) => ({ time, message }));
}
