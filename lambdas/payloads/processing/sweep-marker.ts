import type { Dependencies } from '../../core/dependencies.ts';
import { ConditionFailedError, type TableItem } from '../../core/ports/table-store.ts';
import { keys } from '../../core/store/keys.ts';
import { payloadSweepToItem } from '../../core/store/entities/payload-sweep.ts';

/**
 * The sweep's marker (sweep.ts has the why): written beside a new payload, or for an object that came before its
 * registration; deleted by processing once the payload settled. Kept apart from the job so that registration and the
 * blob event do not import the processing through it.
 */

/** A marker is first due this long after it is written: past the blob event's own retries and a long processing run. */
export const SWEEP_AFTER_MINUTES = 15;

export const dueAfter = (from: Date, minutes: number): Date => new Date(from.getTime() + minutes * 60_000);

/** The marker registration writes beside a new payload (same transaction). */
export function sweepMarker(client: string, payloadReference: string, now: Date): TableItem {
  return payloadSweepToItem(client, payloadReference, now, dueAfter(now, SWEEP_AFTER_MINUTES));
}

/** The blob event met an object with no registration: mark it (once; the first sighting stays) before it is retried. */
export async function markUnregisteredObject(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, payloadReference: string): Promise<void> {
  try {
    await deps.table.put(sweepMarker(client, payloadReference, deps.clock.now()), { condition: { kind: 'item-not-exists' } });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** The payload settled: nothing left to sweep. */
export async function forgetSweep(deps: Pick<Dependencies, 'table'>, client: string, payloadReference: string): Promise<void> {
  await deps.table.delete(keys.payload.sweepKey(client, payloadReference));
}
