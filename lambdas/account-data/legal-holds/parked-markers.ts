import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { readRetentionDue, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { keys } from '#core/store/keys.ts';
import { markerKeysOf, stageOf, type RetainedRecord } from '../retention/due-index.ts';
import { recordHolds, type HoldTarget } from './coverage.ts';

/**
 * Parking the due markers of records a legal hold keeps (docs/decisions.md "Retention job", "Held records are parked").
 * A record the retention job finds held would otherwise stay in its due range and be read again every day; instead
 * its markers move to the `HELD` stage, in a gsi1 partition of the hold that keeps it (keys.retentionDue.heldPartition),
 * out of every due range. Releasing that hold walks exactly that partition, a page at a time (the legal-hold-sync walk,
 * hold-sync.ts), and puts each marker back in the stage its record's state says (LIVE or DELETED), or under another
 * active hold that still keeps the record, so it is due again at the next run.
 *
 * Never losing a marker: parking is one transaction per record, each marker moved only from the stage it was read in,
 * with a check that the hold is still active. A release writes the hold inactive before it walks, so a marker is
 * either parked before the release (and its walk meets it) or refused (and stays due). A walk moves a marker only from
 * the hold's own partition, so two walks at once, or a walk and a run, move it once.
 */

type TableDependencies = Pick<Dependencies, 'table'>;

/** Records parked at once (one transaction each). */
const PARALLEL_PARKS = 16;
/** Markers read per page of a release walk. */
export const PARKED_PAGE = 100;

const inPartition = (partition: string): WriteCondition => ({
  kind: 'expression',
  expression: '#partition = :partition',
  names: { '#partition': 'gsi1pk' },
  values: { ':partition': partition },
});

/** The check that a hold is still active. */
function holdStillActive(client: string, hold: HoldTarget): TransactOperation {
  return {
    kind: 'check',
    key: keys.legalHold.key(client, hold.targetType, hold.target),
    condition: { kind: 'expression', expression: '#active = :yes', names: { '#active': 'is_active' }, values: { ':yes': true } },
  };
}

/** The attributes that park a marker under `hold`. */
function parkedUnder(client: string, hold: HoldTarget) {
  return { stage: 'HELD', gsi1pk: keys.retentionDue.heldPartition(client, hold) };
}

/** A marker written or refused: a refused transaction (changed meanwhile, or the hold released) leaves it as it was. */
async function tryTransaction(deps: TableDependencies, operations: TransactOperation[]): Promise<boolean> {
  try {
    await deps.table.transactWrite(operations);
    return true;
  } catch (error) {
    const failure = error as { name?: string };
    if (error instanceof ConditionFailedError || failure.name === 'TransactionCanceledException' || failure.name === 'TransactionConflictException') return false;
    throw error;
  }
}

/**
 * Parks the markers of records the job found held, each under the hold that keeps it; answers how many records it
 * parked. A marker already parked, purged or gone is left alone; a record whose transaction is refused stays due.
 */
export async function parkHeldRecords(deps: TableDependencies, client: string, held: ReadonlyArray<{ record: RetainedRecord; hold: HoldTarget }>): Promise<number> {
  if (held.length === 0) return 0;
  const wanted = held.flatMap(({ record }) => markerKeysOf(client, record));
  const found = new Map((await deps.table.batchGet(wanted)).map((item) => [`${item.pk}\n${item.sk}`, item]));
  let parked = 0;
  for (let start = 0; start < held.length; start += PARALLEL_PARKS) {
    const done = await Promise.all(
      held.slice(start, start + PARALLEL_PARKS).map(async ({ record, hold }) => {
        const markers = markerKeysOf(client, record)
          .flatMap((key) => found.get(`${key.pk}\n${key.sk}`) ?? [])
          .map((item) => ({ item, marker: readRetentionDue(item) }))
          .filter(({ marker }) => marker.stage === 'LIVE' || marker.stage === 'DELETED');
        if (markers.length === 0) return false;
        const moves: TransactOperation[] = markers.map(({ item, marker }) => ({
          kind: 'update',
          key: { pk: item.pk, sk: item.sk },
          update: { set: parkedUnder(client, hold) },
          // Moved only from the stage it was read in: its due partition in that stage.
          condition: inPartition(duePartition(marker, marker.stage)),
        }));
        return tryTransaction(deps, [...moves, holdStillActive(client, hold)]);
      }),
    );
    parked += done.filter(Boolean).length;
  }
  return parked;
}

/** The marker's due partition in `stage` (gsi1: its tenant, record type, payload type, kind and that stage). */
function duePartition(marker: RetentionDueItem, stage: RetentionDueItem['stage']): string {
  return keys.retentionDue.partition(marker.client, { recordType: marker.record_type, payloadType: marker.payload_type, kind: marker.kind, stage });
}

/** Where a marker goes back to from `HELD`: the stage its record's state says, in its own due partition. */
function unparked(marker: RetentionDueItem, stage: 'LIVE' | 'DELETED') {
  return { stage, gsi1pk: duePartition(marker, stage) };
}

/**
 * One page of a release walk: how many markers it moved (back to due, or under another hold), whether there are more,
 * and from where: a page whose markers all left the partition leaves only later ones, so the walk reads on from the
 * partition's start (`startKey` absent); otherwise after the page's last key.
 */
export interface ParkedPage {
  released: number;
  reparked: number;
  more: boolean;
  startKey?: Record<string, string>;
}

/**
 * Walks one page of the markers parked under `hold` (released now), from `startKey`: each goes back to its due stage,
 * or under another active hold that still keeps its record; a marker whose record is gone or destroyed is removed.
 * Each move is conditional on the marker still being in this hold's partition. Idempotent: a page walked again finds
 * only what is still parked.
 */
export async function releaseParkedPage(deps: TableDependencies, client: string, hold: HoldTarget, startKey?: Record<string, string>): Promise<ParkedPage> {
  const partition = keys.retentionDue.heldPartition(client, hold);
  const page = await deps.table.query({ ...keys.retentionDue.listHeld(client, hold), limit: PARKED_PAGE, ...(startKey === undefined ? {} : { startKey }) });
  const markers = page.items.map((item) => ({ item, marker: readRetentionDue(item) }));
  const records = new Map(
    (await deps.table.batchGet(uniqueKeys(markers.map(({ marker }) => ({ pk: marker.record_pk, sk: marker.record_sk }))))).map((record) => [`${record.pk}\n${record.sk}`, record]),
  );
  // Holds as they are now: the released one no longer counts.
  const holdOf = recordHolds(deps, client);
  const outcomes = await Promise.all(
    markers.map(async ({ item, marker }): Promise<'released' | 'reparked' | 'removed' | 'none'> => {
      const key = { pk: item.pk, sk: item.sk };
      const record = records.get(`${marker.record_pk}\n${marker.record_sk}`);
      const stage = record === undefined ? undefined : stageOf(record);
      if (record === undefined || stage === undefined) {
        return (await tryTransaction(deps, [{ kind: 'delete', key, condition: inPartition(partition) }])) ? 'removed' : 'none';
      }
      const other = await holdOf(record);
      // Placed again meanwhile: the record stays parked under it (a newer walk of the hold decides).
      if (other !== undefined && other.targetType === hold.targetType && other.target === hold.target) return 'none';
      if (other !== undefined) {
        const moved = await tryTransaction(deps, [{ kind: 'update', key, update: { set: parkedUnder(client, other) }, condition: inPartition(partition) }, holdStillActive(client, other)]);
        return moved ? 'reparked' : 'none';
      }
      const moved = await tryTransaction(deps, [{ kind: 'update', key, update: { set: unparked(marker, stage === 'DELETED' ? 'DELETED' : 'LIVE') }, condition: inPartition(partition) }]);
      return moved ? 'released' : 'none';
    }),
  );
  const allLeft = outcomes.every((outcome) => outcome !== 'none');
  return {
    released: outcomes.filter((outcome) => outcome === 'released').length,
    reparked: outcomes.filter((outcome) => outcome === 'reparked').length,
    more: page.lastKey !== undefined,
    ...(page.lastKey === undefined || allLeft ? {} : { startKey: page.lastKey }),
  };
}

function uniqueKeys(list: ReadonlyArray<{ pk: string; sk: string }>): Array<{ pk: string; sk: string }> {
  const seen = new Map(list.map((key) => [`${key.pk}\n${key.sk}`, key]));
  return [...seen.values()];
}
