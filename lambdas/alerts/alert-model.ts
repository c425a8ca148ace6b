import { ALERT_SCOPES, ALERT_SEVERITIES, type AlertScope, type AlertSeverity } from '#shared/constants/alerts.ts';
import { Alert as AlertSchema, type AlertOccurrence as AlertOccurrenceSchema } from '#shared/contract/entities/alerts.ts';
import type { z } from 'zod';
import type { TableItem } from '../core/ports/table-store.ts';

/**
 * How an alert is stored (lambdas/core/store/keys.ts `alert`): the contract's Alert fields as attributes of the
 * `ALERT` item, plus two bookkeeping numbers that make concurrent writes safe:
 * - `occurrence_count`: occurrences so far (ADDed atomically); occurrence n lives in ring slot (n − 1) mod RING.
 * - `dismiss_count`: the dismissal version. Dismiss and clear both write on condition that it is unchanged, so a clear
 *   always decrements exactly the users who had dismissed the alert when it cleared.
 */
export const OCCURRENCE_RING = 50;

/** The counter attribute of one scope × severity (tenant and user counter items). */
export const counterAttribute = (scope: AlertScope, severity: AlertSeverity): string => `${scope}_${severity}`;

/** Every scope × severity pair, in contract order. */
export const SCOPE_SEVERITIES: ReadonlyArray<{ scope: AlertScope; severity: AlertSeverity }> = ALERT_SCOPES.flatMap((scope) =>
  ALERT_SEVERITIES.map((severity) => ({ scope, severity })),
);

/** `dismissed_by` (comma-delimited) as a list. */
export function dismissedUsers(item: Record<string, unknown>): string[] {
  return typeof item.dismissed_by === 'string' && item.dismissed_by.length > 0 ? item.dismissed_by.split(',') : [];
}

/** Who a portal user is in `dismissed_by` and the counters: never containing the list separator. */
export function userId(user: string): string {
  return user.replace(/,/g, '%2C');
}

type OccurrenceSlot = TableItem & { seq?: unknown; time?: unknown; message?: unknown };

/** Occurrences from the ring's slots, oldest first (at most OCCURRENCE_RING: the latest ones). */
export function occurrencesFromSlots(slots: readonly OccurrenceSlot[]): AlertOccurrence[] {
  return slots
    .filter((slot) => typeof slot.seq === 'number' && typeof slot.time === 'string' && typeof slot.message === 'string')
    .sort((a, b) => (a.seq as number) - (b.seq as number))
    .slice(-OCCURRENCE_RING)
    .map((slot) => ({ time: slot.time as string, message: slot.message as string }));
}

export type Alert = z.infer<typeof AlertSchema>;
export type AlertOccurrence = z.infer<typeof AlertOccurrenceSchema>;

const ALERT_FIELDS = Object.keys(AlertSchema.shape) as Array<keyof Alert>;

/** The contract Alert of a stored item (bookkeeping and key attributes left out), parsed so drift shows. */
export function toAlert(item: TableItem, occurrences?: AlertOccurrence[]): Alert {
  const picked: Record<string, unknown> = {};
  for (const field of ALERT_FIELDS) if (item[field] !== undefined) picked[field] = item[field];
  if (occurrences !== undefined) picked.occurrences = occurrences;
  return AlertSchema.parse(picked);
}
