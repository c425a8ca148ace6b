import type { Actor } from '#shared/contract/entities/actor.ts';
import type { AlertCloseRequest } from '#shared/contract/entities/alerts.ts';
import { clearAlert, dismissAlert, type ActingOnAlerts, type AlertActionOutcome } from './alert-actions.ts';
import type { z } from 'zod';

/** Each reference in turn, a few at once: 100 references must not open 100 contended transactions together. */
async function each(references: readonly string[], action: (reference: string) => Promise<AlertActionOutcome>): Promise<AlertActionOutcome[]> {
  const outcomes: AlertActionOutcome[] = [];
  for (let start = 0; start < references.length; start += 10) {
    outcomes.push(...(await Promise.all(references.slice(start, start + 10).map(action))));
  }
  return outcomes;
}

/** PUT alerts: clear 1 to 100 unique references (the contract checked the list); one outcome per reference. */
export function clearAlerts(caller: ActingOnAlerts, request: z.infer<typeof AlertCloseRequest>, clearedBy: Actor): Promise<AlertActionOutcome[]> {
  const reason = request.cleared_reason ?? 'Cleared';
  return each(request.alert_references, (reference) => clearAlert(caller, reference, { reason, clearedBy }));
}

/** PUT alerts/dismiss: dismiss 1 to 100 unique references for the caller. */
export function dismissAlerts(caller: ActingOnAlerts, references: readonly string[]): Promise<AlertActionOutcome[]> {
  return each(references, (reference) => dismissAlert(caller, reference));
}
