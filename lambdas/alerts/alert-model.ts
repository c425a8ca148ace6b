import { ALERT_SCOPES, ALERT_SEVERITIES, type AlertScope, type AlertSeverity } from '#shared/constants/alerts.ts';
import type { Alert as AlertSchema, AlertOccurrence as AlertOccurrenceSchema } from '#shared/contract/entities/alerts.ts';
import type { z } from 'zod';
import type { TableItem } from '../core/ports/table-store.ts';
import { toAlertOccurrences } from '../core/store/entities/alert.ts';

/**
 * How an alert is stored (lambdas/core/store/entities/alert.ts, keys `alert`): the contract's Alert fields as attributes of the
 * `ALERT` item, plus two bookkeeping numbers that make concurrent writes safe:
 * - `occurrence_count`: occurrences so far (ADDed atomically); occurrence n lives in ring slot (n − 1) mod RING.
 * - `dismiss_count`: the dismissal version. Dismiss and clear both write on condition that it is unchanged, so a clear
 *   always decrements exactly the users who had dismissed the alert when it cleared.
 */
export const OCCURRENCE_RING = 50;

export { counterAttribute } from '../core/store/entities/alert-counter.ts';

/** Every scope × severity pair, in contract order. */
export const SCOPE_SEVERITIES: ReadonlyArray<{ scope: AlertScope; severity: AlertSeverity }> = ALERT_SCOPES.flatMap((scope) =>
  ALERT_SEVERITIES.map((severity) => ({ scope, severity })),
);

/** `dismissed_by` (comma-delimited) as a list. */
export function dismissedUsers(alert: { dismissed_by?: string | undefined }): string[] {
  return alert.dismissed_by !== undefined && alert.dismissed_by.length > 0 ? alert.dismissed_by.split(',') : [];
}

/** Who a portal user is in `dismissed_by` and the counters: never containing the list separator. */
export function userId(user: string): string {
  return user.replace(/,/g, '%2C');
}

/** Occurrences from the ring's slots, oldest first (at most OCCURRENCE_RING: the latest ones). */
export function occurrencesFromSlots(slots: readonly TableItem[]): AlertOccurrence[] {
  return toAlertOccurrences(slots, OCCURRENCE_RING);
}

export type Alert = z.infer<typeof AlertSchema>;
export type AlertOccurrence = z.infer<typeof AlertOccurrenceSchema>;

