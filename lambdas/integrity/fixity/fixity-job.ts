import * as z from 'zod';
import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import { allClients } from '#core/store/all-clients.ts';
import {
  fixityCycleToItem,
  integrityCheckToItem,
  integrityKeys,
  objectMarkToItem,
  readFixityCycle,
  readObjectMark,
  type FixityCycle,
  type ObjectMark,
} from '#core/store/entities/integrity-check.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { ClientId } from '#shared/contract/fields.ts';
import type { FixityFailureKind, IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { raiseFixityAlert } from './fixity-alerts.ts';
import { checkPresence, readInFull, type ObjectFault } from './object-checks.ts';

/** The job's name, as the schedule and `npm run job -- fixity [--client <c>]` call it. */
export const FIXITY_JOB = 'fixity';
/** Every stored recording is read in full once per cycle: 90 days unless the run is told otherwise. */
export const DEFAULT_CYCLE_DAYS = 90;
/** A run never reads more than this in full per tenant (10 GiB), whatever the pace asks: the Lambda's time bounds it. */
export const MAX_RUN_BYTES = 10 * 1024 ** 3;
/** Recordings per Query page (each page: one BatchGet of their marks, one HEAD per object). */
const PAGE = 100;
/** A run lists at most this many failing recordings on its IntegrityCheck; the counts stay exact. */
const LISTED_FAILURES = 100;

export const FixityInput = z.object({
  client: ClientId.optional(),
  /** Days in which every stored recording is read in full once. */
  cycle_days: z.int().min(1).max(3650).default(DEFAULT_CYCLE_DAYS),
  /** Bytes a run reads in full per tenant; by default the tenant's stored bytes over the cycle's days (its pace). */
  byte_budget: z.int().min(1).optional(),
});
export type FixityInput = z.output<typeof FixityInput>;

export type FixityDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock'>;

/** One recording the run visits: the payload as processing left it. */
interface Stored {
  item: TableItem;
  payload: PayloadItem;
}

/** What a run of one tenant found, as it goes. */
interface RunFigures {
  objects_checked: number;
  objects_verified: number;
  bytes_verified: number;
  stored_bytes: number;
  failures: Record<FixityFailureKind, number>;
  listed: IntegrityCheck['failures'];
  /** One alert per recording and kind per run, even when both the daily check and the full read find it. */
  alerted: Set<string>;
}

/**
 * The `fixity` job (daily): re-verifies every tenant's (or `client`'s) stored recordings and keeps each run's figures
 * as an IntegrityCheck. Per tenant, in two passes over its Processed recordings by processing time (the byProcessedAt
 * index: a Query, never a Scan, and only this tenant's objects, whose keys start with the tenant):
 * 1. every recording's processed object is checked without reading it (object-checks.ts `checkPresence`);
 * 2. from where the cycle stopped, recordings are read in full and hashed against the device's digest, until the run's
 *    byte budget is spent (the pace: stored bytes over the cycle's days, so each run reads about 1/90th); the position
 *    is kept in the tenant's cycle item and the next run resumes there. When the cycle has read the last recording it
 *    waits until `cycle_days` after its start, then starts again from the oldest.
 * A missing, changed or unreadable object raises its `sec` alert (fixity-alerts.ts). Answers the runs' figures.
 */
export async function fixityJob(deps: FixityDependencies, rawInput: Record<string, unknown>): Promise<Record<string, unknown>> {
  const input = FixityInput.parse(rawInput);
  const clients = input.client === undefined ? allClients(deps.table) : single(input.client);
  const checks: IntegrityCheck[] = [];
  for await (const client of clients) checks.push(await checkTenant(deps, client, input));
  return {
    outcome: 'done',
    tenants: checks.length,
    objects_checked: sum(checks, 'objects_checked'),
    objects_verified: sum(checks, 'objects_verified'),
    bytes_verified: sum(checks, 'bytes_verified'),
    failures: checks.reduce((total, check) => total + check.failures_missing + check.failures_changed + check.failures_unreadable, 0),
  };
}

/** One tenant's run: both passes, then its IntegrityCheck and cycle position written. */
export async function checkTenant(deps: FixityDependencies, client: string, input: FixityInput): Promise<IntegrityCheck> {
  const startedAt = deps.clock.now();
  const figures: RunFigures = {
    objects_checked: 0,
    objects_verified: 0,
    bytes_verified: 0,
    stored_bytes: 0,
    failures: { missing: 0, changed: 0, unreadable: 0 },
    listed: [],
    alerted: new Set(),
  };

  const fail = async (stored: Stored, fault: ObjectFault) => {
    const seen = `${stored.payload.payload_reference}:${fault.kind}`;
    if (figures.alerted.has(seen)) return;
    figures.alerted.add(seen);
    figures.failures[fault.kind] += 1;
    const alertId = await raiseFixityAlert(deps, client, stored.payload, fault);
    if (figures.listed.length < LISTED_FAILURES) figures.listed.push({ payload_reference: stored.payload.payload_reference, kind: fault.kind, alert_reference: alertId });
  };

  // 1. Presence, size and version of every stored recording.
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...keys.payload.listProcessed(client), limit: PAGE, ...(startKey === undefined ? {} : { startKey }) });
    const recordings = page.items.map((item) => ({ item, payload: readPayload(item) }));
    const marks = await marksOf(deps, client, recordings);
    for (const stored of recordings) {
      const reference = stored.payload.payload_reference;
      const mark = marks.get(reference);
      const outcome = await checkPresence(deps, payloadObjectKey(client, reference), stored.payload.checksum, mark);
      figures.objects_checked += 1;
      if ('fault' in outcome) {
        await fail(stored, outcome.fault);
        continue;
      }
      figures.stored_bytes += outcome.size;
      if (mark === undefined) {
        const first: ObjectMark = { payload_reference: reference, version: outcome.version, size: outcome.size, first_checked_at: startedAt.toISOString() };
        await deps.table.put(objectMarkToItem(client, first));
      }
    }
    startKey = page.lastKey;
  } while (startKey !== undefined);

  // 2. The cycle's full reads, from where it stopped, within the run's budget.
  const cycle = await cycleOf(deps, client, input.cycle_days, startedAt);
  const budget = input.byte_budget ?? Math.min(MAX_RUN_BYTES, Math.max(1, Math.ceil(figures.stored_bytes / input.cycle_days)));
  let budgetReached = false;
  if (cycle.completed_at === undefined) {
    let position = cycle.position;
    reading: do {
      const page = await deps.table.query({ ...keys.payload.listProcessed(client), limit: PAGE, ...(position === undefined ? {} : { startKey: position }) });
      for (const item of page.items) {
        // At least one recording a run, so a recording larger than the budget is still read in its turn.
        if (figures.objects_verified > 0 && figures.bytes_verified >= budget) {
          budgetReached = true;
          break reading;
        }
        const stored = { item, payload: readPayload(item) };
        const outcome = await readInFull(deps, payloadObjectKey(client, stored.payload.payload_reference), stored.payload.checksum);
        if ('fault' in outcome) await fail(stored, outcome.fault);
        else figures.bytes_verified += outcome.bytes;
        figures.objects_verified += 1;
        cycle.objects_read += 1;
        position = positionOf(item);
      }
      if (page.lastKey === undefined) {
        cycle.completed_at = deps.clock.now().toISOString();
        break;
      }
    } while (position !== undefined);
    if (position !== undefined) cycle.position = position;
  }
  await deps.table.put(fixityCycleToItem(client, cycle));

  const stored = figures.objects_checked;
  const check: IntegrityCheck = {
    client,
    check_id: ulid(startedAt.getTime()),
    started_at: startedAt.toISOString(),
    finished_at: deps.clock.now().toISOString(),
    objects_checked: figures.objects_checked,
    objects_verified: figures.objects_verified,
    bytes_verified: figures.bytes_verified,
    failures_missing: figures.failures.missing,
    failures_changed: figures.failures.changed,
    failures_unreadable: figures.failures.unreadable,
    failures: figures.listed,
    cycle_days: input.cycle_days,
    cycle_started_at: cycle.cycle_started_at,
    cycle_objects_read: cycle.objects_read,
    stored_objects: stored,
    cycle_progress: stored === 0 ? (cycle.completed_at === undefined ? 0 : 1) : Math.min(1, cycle.objects_read / stored),
    budget_reached: budgetReached,
    ...(cycle.position === undefined ? {} : { position: `${cycle.position.by_processed_at_sk ?? ''}` }),
  };
  await deps.table.put(integrityCheckToItem(check));
  return check;
}

/** The tenant's cycle: the stored one, a fresh one when none exists, or a new one once a completed cycle's days are past. */
async function cycleOf(deps: FixityDependencies, client: string, cycleDays: number, now: Date): Promise<FixityCycle> {
  const item = await deps.table.get(integrityKeys.cycle(client), { consistent: true });
  const fresh: FixityCycle = { cycle_started_at: now.toISOString(), objects_read: 0 };
  if (item === undefined) return fresh;
  const cycle = readFixityCycle(item);
  if (cycle.completed_at === undefined) return cycle;
  const due = new Date(cycle.cycle_started_at).getTime() + cycleDays * 86_400_000;
  return now.getTime() >= due ? fresh : cycle;
}

/** The byProcessedAt start key just after one listed recording: where the next read goes on. */
function positionOf(item: TableItem): Record<string, string> {
  const key: Record<string, string> = {};
  for (const name of ['pk', 'sk', 'by_processed_at_pk', 'by_processed_at_sk']) {
    const value = item[name];
    if (typeof value === 'string') key[name] = value;
  }
  return key;
}

async function marksOf(deps: FixityDependencies, client: string, recordings: Stored[]): Promise<Map<string, ObjectMark>> {
  if (recordings.length === 0) return new Map();
  const items = await deps.table.batchGet(recordings.map((stored) => integrityKeys.objectMark(client, stored.payload.payload_reference)));
  return new Map(items.map((item) => {
    const mark = readObjectMark(item);
    return [mark.payload_reference, mark];
  }));
}

const sum = (checks: IntegrityCheck[], field: 'objects_checked' | 'objects_verified' | 'bytes_verified') =>
  checks.reduce((total, check) => total + check[field], 0);

async function* single(client: string): AsyncGenerator<string> {
  yield client;
}
