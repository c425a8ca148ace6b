import { raiseAlert } from '../../alerts/public.ts';
import { relatedEntity } from '../../alerts/public.ts';
import { ConditionFailedError } from '../../core/ports/table-store.ts';
import { readPayloadSweep, type PayloadSweepItem } from '../../core/store/entities/payload-sweep.ts';
import { keys, payloadObjectKey } from '../../core/store/keys.ts';
import { processPayload, type ProcessingDependencies, type ProcessingOutcome } from './processing.ts';
import { dueAfter, forgetSweep, SWEEP_AFTER_MINUTES } from './sweep-marker.ts';
import { allClients } from '../../core/store/all-clients.ts';

/**
 * The late-registration sweep: no payload is lost silently when an event never comes.
 *
 * Every payload carries a sweep marker (`keys.payload.sweep`) from its registration until it settles: registration
 * writes it in the same transaction as the payload, and processing deletes it once the final state's effects ran. An
 * object whose registration has not come yet gets one too (`markUnregisteredObject`, from the blob event). The job
 * `payload-sweep` reads, per client, the markers due (a key range up to now on their index partition: a Query, never
 * a Scan) and runs the processing again, which is idempotent, so a payload stuck in Recorded, Uploaded or Scanning
 * moves on from where it stopped. What cannot move on is alerted once and checked less and less often:
 *
 * - an object whose registration never came (`upload-without-registration`),
 * - a registration whose object never came (`registration-without-upload`).
 */

/** How long a payload may wait for its object, or an object for its registration, before an alert. */
export const ALERT_AFTER_HOURS = 24;
/** Re-checks back off to at most once a day. */
const MAX_INTERVAL_MINUTES = 24 * 60;
/** An alerted marker is kept this long for re-checks, then DynamoDB's TTL removes it. */
const ALERTED_MARKER_DAYS = 30;
const PAGE = 100;
/** A run handles at most this many markers per client; the rest are due on the next run. */
const MAX_PER_CLIENT = 500;

export type SweepDependencies = ProcessingDependencies;

export interface SweepReport {
  clients: number;
  /** Markers read. */
  due: number;
  /** Settled by this run (or found settled). */
  settled: number;
  /** Still waiting (rescheduled). */
  waiting: number;
  alerted: number;
  /** Markers with neither a payload nor an object: removed. */
  dropped: number;
  failed: number;
}

/** Job `payload-sweep`: every client's due markers, oldest due first. One failing payload is logged, not fatal. */
export async function sweepUnsettledPayloads(deps: SweepDependencies): Promise<SweepReport> {
  const now = deps.clock.now();
  const report: SweepReport = { clients: 0, due: 0, settled: 0, waiting: 0, alerted: 0, dropped: 0, failed: 0 };
  for await (const client of allClients(deps.table)) {
    report.clients += 1;
    let startKey: Record<string, string> | undefined;
    let read = 0;
    do {
      const page = await deps.table.query({
        ...keys.payload.listSweepDue(client),
        // Keys are `<due ISO>#<reference>`: everything below now's text is due.
        sort: { between: ['0', now.toISOString()] },
        limit: PAGE,
        ...(startKey ? { startKey } : {}),
      });
      for (const marker of page.items.map(readPayloadSweep)) {
        report.due += 1;
        read += 1;
        try {
          report[await sweepOne(deps, client, marker, now)] += 1;
        } catch (error) {
          report.failed += 1;
          deps.logger.warn('payload sweep failed', { client, payload_reference: marker.payload_reference, error: error instanceof Error ? error.message : String(error) });
          await reschedule(deps, client, marker, { now }).catch(() => undefined);
        }
      }
      startKey = read < MAX_PER_CLIENT ? page.lastKey : undefined;
    } while (startKey !== undefined);
  }
  return report;
}

type SweepResult = 'settled' | 'waiting' | 'alerted' | 'dropped';
const SETTLED: readonly ProcessingOutcome[] = ['Processed', 'Failed', 'Quarantined', 'unchanged'];

async function sweepOne(deps: SweepDependencies, client: string, marker: PayloadSweepItem, now: Date): Promise<SweepResult> {
  const reference = marker.payload_reference;
  const outcome = await processPayload(deps, client, reference);
  // A final state: processing has deleted the marker after the state's effects.
  if (SETTLED.includes(outcome)) return 'settled';
  if (outcome === 'not-registered' && (await deps.blobs.head('raw', payloadObjectKey(client, reference))) === undefined) {
    // Neither a registration nor an object: nothing was uploaded, so nothing can be lost.
    await forgetSweep(deps, client, reference);
    return 'dropped';
  }
  const waitedHours = (now.getTime() - Date.parse(marker.since)) / 3_600_000;
  const stuck = outcome === 'not-registered' || outcome === 'not-uploaded';
  if (stuck && marker.alerted !== true && waitedHours >= ALERT_AFTER_HOURS) {
    await alertStuck(deps, client, reference, outcome === 'not-registered' ? 'upload-without-registration' : 'registration-without-upload');
    await reschedule(deps, client, marker, { now, alerted: true });
    return 'alerted';
  }
  await reschedule(deps, client, marker, { now });
  return 'waiting';
}

/** Next due time with back-off (15 min, 30, 60, … up to a day); an alerted marker also gets its TTL. */
async function reschedule(deps: SweepDependencies, client: string, marker: PayloadSweepItem, change: { now: Date; alerted?: true }): Promise<void> {
  const { now } = change;
  const attempts = (marker.attempts ?? 0) + 1;
  const minutes = Math.min(MAX_INTERVAL_MINUTES, SWEEP_AFTER_MINUTES * 2 ** Math.min(attempts, 10));
  const reference = marker.payload_reference;
  const { gsi1sk } = keys.payload.sweep(client, reference, dueAfter(now, minutes));
  try {
    await deps.table.update(
      keys.payload.sweepKey(client, reference),
      {
        set: {
          gsi1sk,
          attempts,
          ...(change.alerted ? { alerted: true, expires_at_epoch: Math.floor(now.getTime() / 1000) + ALERTED_MARKER_DAYS * 86_400 } : {}),
        },
      },
      // Only a marker that still exists: processing may have settled the payload and deleted it meanwhile.
      { condition: { kind: 'item-exists' } },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

async function alertStuck(deps: SweepDependencies, client: string, reference: string, why: 'upload-without-registration' | 'registration-without-upload'): Promise<void> {
  const message =
    why === 'upload-without-registration'
      ? `Payload ${reference} was uploaded ${ALERT_AFTER_HOURS} hours ago or more but never registered: it cannot be opened until the device registers it`
      : `Payload ${reference} was registered ${ALERT_AFTER_HOURS} hours ago or more but its upload never arrived`;
  await raiseAlert(deps, client, {
    scope: 'ops',
    type: 'PayloadAlert',
    subject: why === 'upload-without-registration' ? 'Payload upload not registered' : 'Payload upload missing',
    key: `sweep:${reference}`,
    keyType: 'Scoped',
    message,
    severity: 'Medium',
    relatedEntities: [relatedEntity(client, 'Payload', reference)],
  });
  deps.logger.warn('payload stuck', { client, payload_reference: reference, why });
}
