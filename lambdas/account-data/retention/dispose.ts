import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, isTransactionConflict, type ItemKey, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { disposalToItem, type DisposalItem } from '#core/store/entities/disposal.ts';
import { readRetainedItem, type RetainedItem } from '#core/store/entities/retained-item.ts';
import { retentionDueToItem, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { RetentionTimestampType } from '#shared/constants/account.ts';
import { eachPage } from '#core/store/paging.ts';
import { markerKeysOf, markersOf, stateOf, type RetainedRecord } from './due-index.ts';
import { decideDisposal, equals, stateCondition, type Decision, type JudgedPass } from './disposal-decision.ts';
import type { DuePass } from './retention-rules.ts';
import { activityChange } from './record-changes/activity.ts';
import { awaitingEntryRemoval, payloadChange } from './record-changes/payload.ts';
import { entryHash } from '../../audit/public.ts';
import { waveformObjectKey } from '../../payloads/public.ts';
import { removeDestroyedRecordingComments, type CommentRemovalLimits } from '../../payloads/public.ts';
import { recordChangesOf } from './record-changes/by-entity.ts';
import { purgedInBatches } from './record-changes/bulk-purge.ts';
import type { DisposalWrite } from './record-changes/shared.ts';

/**
 * One record's disposal (docs/decisions.md "Retention job"): the record's change of state, its disposal record and
 * its markers' move are one transaction, conditional on the state the job read, so a disposal never happens without
 * its record and two runs at once dispose of a record once (the second finds the state changed and does nothing).
 * A destroyed payload's objects and comments are removed after that transaction; its `PURGE` marker stays until they
 * are gone.
 */

export type DisposeDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'logger'>;

/** What disposing of one record came to (the job counts them). */
export type DisposeOutcome =
  | 'deleted'
  | 'destroyed'
  | 'held'
  | 'locked'
  | 'requirements'
  | 'raced'
  | 'stale'
  | 'state'
  | 'recent'
  | 'active'
  | 'rebased'
  | 'purge_pending';

/** The actor retention writes into `updated_by`. */
export const RETENTION_ACTOR = 'retention';

/** A payload's recorded checksum; for other records SHA-256 of the stored item, attributes in name order. */
function checksumOf(item: TableItem, record: RetainedItem): string {
  if (record.entity === 'Payload' && record.checksum !== undefined && record.checksum.length > 0) return record.checksum;
  const sorted = Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** Whether the record is in a state this pass may act on; the condition that keeps it so until the write. */
export function fromState(item: TableItem, pass: DuePass): WriteCondition | 'active' | 'state' | 'recent' {
  const record = readRetainedItem(item);
  return record === undefined ? 'state' : stateCondition(item, record, pass);
}

/** One tenant's pass in a run: the pass decided (disposal-decision.ts) and the run its disposal records name. */
export interface PassRun extends JudgedPass {
  runId: string;
}

/** A disposal the decision allows: the record as read, and the marker it counts from. */
type Disposable = Extract<Decision, { outcome: 'deleted' | 'destroyed' }>;

function disposalOf({ client, pass, runId }: PassRun, item: TableItem, { retained, record, marker }: Disposable, now: Date): DisposalItem {
  const { rule } = pass;
  return {
    client,
    disposal_id: ulid(now.getTime()),
    record_type: record.recordType,
    ...(record.payloadType === undefined ? {} : { payload_type: record.payloadType as DisposalItem['payload_type'] }),
    reference: record.reference,
    action: pass.action,
    // An activity record's checksum is its chain entry hash: the verifier matches it with the link that names it.
    checksum: retained.entity === 'UserActivity' || retained.entity === 'DeviceActivity' ? entryHash(item) : checksumOf(item, retained),
    disposed_at: now.toISOString(),
    run_id: runId,
    policy: {
      ...(rule.deleteAfterDays === undefined ? {} : { delete_after_days: rule.deleteAfterDays }),
      ...(rule.destroyAfterDays === undefined ? {} : { destroy_after_days: rule.destroyAfterDays }),
      // A payload's markers are kept per retention timestamp: the marker's kind is the one the policy counted from.
      ...(record.recordType === 'PayloadData' ? { retention_timestamp: RetentionTimestampType.parse(marker.kind) } : {}),
      base_time: marker.base_time,
    },
  };
}

/**
 * The PURGE marker of a destroyed record whose parts outlive its transaction (a payload's objects and comments, a
 * migration's results, a transfer run's files): kind `purge`, one partition per tenant and record type, until they
 * are gone.
 */
export function purgeMarkerOf(client: string, record: RetainedRecord, now: Date): RetentionDueItem {
  return {
    client,
    record_type: record.recordType,
    kind: 'purge',
    stage: 'PURGE',
    base_time: now.toISOString(),
    record_pk: record.key.pk,
    record_sk: record.key.sk,
    reference: record.reference,
  };
}

/** The writes that change the record itself (under `disposal`, written beside them). */
async function recordChange(deps: DisposeDependencies, client: string, item: TableItem, change: DisposalWrite & { retained: RetainedItem }): Promise<TransactOperation[]> {
  const { retained, ...write } = change;
  const { action, condition, disposal } = write;
  const key = { pk: item.pk, sk: item.sk };
  const now = disposal.disposed_at;
  const own = recordChangesOf(retained.entity);
  if (own !== undefined) return own.change(deps, client, item, write);
  if (retained.entity === 'Payload') return [...payloadChange(item, write, RETENTION_ACTOR), ...(action === 'Destroyed' ? awaitingEntryRemoval(client, item) : [])];
  if (retained.entity === 'UserActivity' || retained.entity === 'DeviceActivity') return activityChange(client, item, write);
  if (action === 'Deleted') return [{ kind: 'update', key, update: { set: { retention_state: 'Deleted', deleted_at: now } }, condition }];
  const operations: TransactOperation[] = [{ kind: 'delete', key, condition }];
  if (retained.entity === 'Alert') {
    // The alert's ring of occurrences goes with it (at most 50 items, in its own partition).
    for await (const page of eachPage(deps.table, keys.alert.occurrencesIn(item.pk))) {
      for (const occurrence of page) operations.push({ kind: 'delete', key: { pk: occurrence.pk, sk: occurrence.sk } });
    }
  }
  return operations;
}

/** The marker writes: every marker of the record moved to DELETED, or removed (a payload keeps a PURGE marker). */
function markerChange(client: string, record: RetainedRecord, pass: DuePass, now: Date): TransactOperation[] {
  if (pass.action === 'Deleted') return markersOf(client, record, 'DELETED').map((marker) => ({ kind: 'put', item: retentionDueToItem(marker) }));
  const removals: TransactOperation[] = markerKeysOf(client, record).map((key) => ({ kind: 'delete', key }));
  // Parts that outlive the transaction (a payload's objects and comments, a batch-purged record's many parts) wait
  // under a PURGE marker.
  const outlived = record.recordType === 'PayloadData' || purgedInBatches(record.recordType);
  return outlived ? [...removals, { kind: 'put', item: retentionDueToItem(purgeMarkerOf(client, record, now)) }] : removals;
}

/** A disposal ready to write: its transaction, and the PURGE marker to act on once it is written. */
export interface PlannedDisposal {
  outcome: 'deleted' | 'destroyed';
  /** The record's key, and whether a fresh read of it still allows this disposal (after a refused transaction). */
  key: ItemKey;
  stillDue: (item: TableItem | undefined) => boolean;
  operations: TransactOperation[];
  purge?: RetentionDueItem | undefined;
  /** Written in a transaction of its own (it writes items other disposals write too). */
  ownTransaction?: boolean;
}

/**
 * What to do with the record one marker names (`item`, as read; undefined when it is gone): an outcome that writes
 * nothing of the record (held, not in a state the pass acts on, moved on, gone), or the disposal's transaction. The
 * decision is disposal-decision.ts' (the preview counts the same one); this adds the writes it leads to.
 */
export async function planDisposal(deps: DisposeDependencies, run: PassRun, marker: RetentionDueItem, item: TableItem | undefined): Promise<Decision | PlannedDisposal> {
  const { client, pass } = run;
  const decision = await decideDisposal(deps, run, marker, item);
  if (decision.outcome === 'stale') {
    // The record is gone (removed by other means): its marker is all that is left.
    await deps.table.delete(keys.retentionDue.key(client, { pk: marker.record_pk, sk: marker.record_sk }, marker.kind));
    return decision;
  }
  if (decision.outcome === 'rebased') {
    // Only while the marker is where it was read: a marker another run moved meanwhile is that run's.
    try {
      await deps.table.put(retentionDueToItem(decision.marker), { condition: equals('stage', marker.stage) });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    return decision;
  }
  if (decision.outcome !== 'deleted' && decision.outcome !== 'destroyed') return decision;
  const { retained, record, condition } = decision;
  const found = item as TableItem;
  const now = deps.clock.now();
  const disposal = disposalOf(run, found, decision, now);
  const operations: TransactOperation[] = [
    ...(await recordChange(deps, client, found, { retained, action: pass.action, condition, disposal })),
    { kind: 'put', item: disposalToItem(disposal), condition: { kind: 'item-not-exists' } },
    ...markerChange(client, record, pass, now),
  ];
  const purge = pass.action === 'Destroyed' && record.recordType === 'PayloadData' ? purgeMarkerOf(client, record, now) : undefined;
  const planned = stateOf(retained);
  return {
    outcome: decision.outcome,
    key: { pk: found.pk, sk: found.sk },
    stillDue: (fresh) => {
      const now = fresh === undefined ? undefined : readRetainedItem(fresh);
      return now !== undefined && stateOf(now) === planned;
    },
    operations,
    purge,
    ...(recordChangesOf(retained.entity)?.ownTransaction === true ? { ownTransaction: true } : {}),
  };
}

/** Unconditional counter updates (ADD) of one item merged into one: a transaction may write an item only once. */
export function mergedCounters(operations: readonly TransactOperation[]): TransactOperation[] {
  const merged: TransactOperation[] = [];
  const counters = new Map<string, Record<string, number>>();
  for (const operation of operations) {
    if (operation.kind !== 'update' || operation.condition !== undefined || operation.update.add === undefined || operation.update.remove !== undefined) {
      merged.push(operation);
      continue;
    }
    const id = `${operation.key.pk}\n${operation.key.sk}`;
    const sums = counters.get(id);
    if (sums === undefined) {
      const add = { ...operation.update.add };
      counters.set(id, add);
      merged.push({ ...operation, update: { ...operation.update, add } });
      continue;
    }
    for (const [name, by] of Object.entries(operation.update.add)) sums[name] = (sums[name] ?? 0) + by;
  }
  return merged;
}

/** Whether a transaction of these plans moves a counter item (ADD): such transactions go one after another. */
function movesCounter(group: readonly PlannedDisposal[]): boolean {
  return group.some((plan) => plan.operations.some((operation) => operation.kind === 'update' && operation.update.add !== undefined));
}

/** Destroyed payloads whose objects are removed at once. */
const PARALLEL_PURGES = 16;

/** DynamoDB's bound on one transaction. */
const MAX_TRANSACTION = 100;

/**
 * Writes planned disposals, several to a transaction (all or nothing, each still conditional on its record's state).
 * When a transaction is refused because some record changed (another run got there first), each of its disposals is
 * tried alone, so only the changed ones are left out ('raced'). Then removes destroyed payloads' objects.
 */
export async function writeDisposals(deps: DisposeDependencies, client: string, plans: readonly PlannedDisposal[]): Promise<DisposeOutcome[]> {
  const groups: PlannedDisposal[][] = [];
  let size = MAX_TRANSACTION;
  for (const plan of plans) {
    // A disposal that writes items other disposals write too (counters) fills a transaction of its own.
    const weight = plan.ownTransaction === true ? MAX_TRANSACTION : plan.operations.length;
    if (size + weight > MAX_TRANSACTION) {
      groups.push([]);
      size = 0;
    }
    (groups.at(-1) as PlannedDisposal[]).push(plan);
    size += weight;
  }
  const outcomes: DisposeOutcome[] = [];
  const written: PlannedDisposal[] = [];
  const writeAlone = async (plan: PlannedDisposal) => {
    try {
      await deps.table.transactWrite(plan.operations);
      written.push(plan);
    } catch (error) {
      // Another run (or a restore) changed the record since it was read, or is writing it now: it is theirs, and
      // nothing was written here (a record left as it was stays due for the next run).
      if (!(error instanceof ConditionFailedError) && !isTransactionConflict(error)) throw error;
      outcomes.push('raced');
    }
  };
  const writeGroup = async (group: PlannedDisposal[], retry: boolean): Promise<void> => {
    if (group.length === 0) return;
    if (group.length === 1) return writeAlone(group[0] as PlannedDisposal);
    try {
      await deps.table.transactWrite(mergedCounters(group.flatMap((plan) => plan.operations)));
      written.push(...group);
    } catch (error) {
      if (!(error instanceof ConditionFailedError) && !isTransactionConflict(error)) throw error;
      if (!retry) {
        for (const plan of group) await writeAlone(plan);
        return;
      }
      // Read the records again: those another run changed meanwhile are left out, the rest tried once more together.
      const fresh = new Map((await deps.table.batchGet(group.map((plan) => plan.key))).map((item) => [`${item.pk}\n${item.sk}`, item]));
      const still = group.filter((plan) => plan.stillDue(fresh.get(`${plan.key.pk}\n${plan.key.sk}`)));
      for (let left = group.length - still.length; left > 0; left -= 1) outcomes.push('raced');
      await writeGroup(still, false);
    }
  };
  // Transactions that move one counter item at once would refuse each other (a conflicting transaction): those go
  // one after another, beside the others.
  const counting = groups.filter(movesCounter);
  await Promise.all([
    ...groups.filter((group) => !movesCounter(group)).map((group) => writeGroup(group, true)),
    (async () => {
      for (const group of counting) await writeGroup(group, true);
    })(),
  ]);
  for (let start = 0; start < written.length; start += PARALLEL_PURGES) {
    const done = await Promise.all(
      written.slice(start, start + PARALLEL_PURGES).map(async (plan): Promise<DisposeOutcome> => {
        if (plan.purge === undefined) return plan.outcome;
        return (await purgeObjects(deps, client, plan.purge)) ? plan.outcome : 'purge_pending';
      }),
    );
    outcomes.push(...done);
  }
  return outcomes;
}

/**
 * Removes a destroyed payload's objects (processed and raw, and the waveform peaks drawn from its audio) for good,
 * and its comments a page at a time (payloads/comments/destroyed-recording-comments.ts), then its PURGE marker. False
 * when something is left: S3 refused (a legal hold turned on meanwhile, an outage), more comments than one call
 * removes, or comments a legal hold on their author keeps. The marker stays and the next run goes on.
 */
export async function purgeObjects(deps: DisposeDependencies, client: string, marker: RetentionDueItem, commentLimits?: CommentRemovalLimits): Promise<boolean> {
  const objectKey = payloadObjectKey(client, marker.reference);
  try {
    await Promise.all([
      deps.blobs.destroy('processed', objectKey),
      deps.blobs.destroy('raw', objectKey),
      deps.blobs.destroy('processed', waveformObjectKey(client, marker.reference)),
    ]);
  } catch (error) {
    deps.logger.warn('retention: objects of a destroyed payload not removed yet', { client, payload_reference: marker.reference, error: String(error) });
    return false;
  }
  const comments = await removeDestroyedRecordingComments(deps, client, marker.reference, commentLimits);
  if (comments.left !== 'none') return false;
  await deps.table.delete(keys.retentionDue.key(client, { pk: marker.record_pk, sk: marker.record_sk }, marker.kind));
  return true;
}
