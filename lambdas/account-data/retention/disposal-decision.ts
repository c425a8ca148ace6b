import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem, WriteCondition } from '#core/ports/table-store.ts';
import { readPayloadAuditAction } from '#core/store/entities/payload-audit.ts';
import { readRetainedItem, type RetainedItem } from '#core/store/entities/retained-item.ts';
import type { RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { recordHolds, type HoldTarget } from '../legal-holds/coverage.ts';
import { retainedRecordFrom, type RetainedRecord } from './due-index.ts';
import { recordChangesOf } from './record-changes/by-entity.ts';
import type { DuePass } from './retention-rules.ts';

/**
 * What the retention run does with one record a due marker names, decided without writing anything. The job acts on
 * this answer (dispose.ts `planDisposal`) and the impact preview counts it (retention-preview.ts), so what the preview
 * says will happen is what the run does: the same state rules, the same legal-hold coverage, the same receipt and
 * transfer requirements, the same Object Lock check.
 */

type DecisionDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'logger'>;

/** Why a due record is kept by the run rather than disposed of (none of these writes the record). */
export type KeptOutcome = 'held' | 'locked' | 'requirements' | 'active' | 'state' | 'recent';

export type Decision =
  /** The record is gone (removed by other means): only its marker is left. */
  | { outcome: 'stale' }
  /** The record moved on (an alert that occurred again): not due; its marker belongs at `marker`'s time. */
  | { outcome: 'rebased'; marker: RetentionDueItem }
  | { outcome: KeptOutcome; hold?: HoldTarget | undefined }
  | {
      outcome: 'deleted' | 'destroyed';
      retained: RetainedItem;
      record: RetainedRecord;
      /** The condition that keeps the record in the state read until the disposal's write. */
      condition: WriteCondition;
      /** The marker the disposal counts from (moved to the record's current time when it moved on within the cutoff). */
      marker: RetentionDueItem;
    };

/** A check beyond the record's own state: which active hold keeps it, or whether its requirements or lock do. */
export type Refusal = (pass: DuePass, item: TableItem, record: RetainedRecord) => Promise<{ outcome: KeptOutcome; hold?: HoldTarget } | undefined>;

/** Payload states retention deletes: settled recordings. Failed and quarantined uploads stay for their own handling. */
const DELETABLE_PAYLOAD_STATES = new Set(['Processed', 'Transferred']);

export const equals = (name: string, value: string): WriteCondition => ({
  kind: 'expression',
  expression: '#state = :state',
  names: { '#state': name },
  values: { ':state': value },
});
const absent = (name: string): WriteCondition => ({
  kind: 'expression',
  expression: 'attribute_exists(#pk) AND attribute_not_exists(#state)',
  names: { '#pk': 'pk', '#state': name },
});

/** Deleted by this run (or a run at the same time): destroyed by a later one. */
function deletedSince(record: RetainedItem, pass: DuePass): boolean {
  return pass.stage === 'DELETED' && record.deleted_at !== undefined && record.deleted_at >= pass.runAt;
}

/** Whether the record is in a state this pass may act on; the condition that keeps it so until the write. */
export function stateCondition(item: TableItem, record: RetainedItem, pass: DuePass): WriteCondition | 'active' | 'state' | 'recent' {
  if (record.entity === 'Alert' && record.alert_state === 'Triggered') return 'active';
  if (deletedSince(record, pass)) return 'recent';
  // A record with a life of its own (a hold, a device user, a transfer run…) is due only once it has ended.
  if (recordChangesOf(record.entity)?.ended(item) === false) return 'active';
  if (record.entity === 'Payload') {
    const state = record.payload_state;
    if (pass.action === 'Destroyed' && pass.stage === 'DELETED') return state === 'Deleted' ? equals('payload_state', state) : 'state';
    return state !== undefined && DELETABLE_PAYLOAD_STATES.has(state) ? equals('payload_state', state) : 'state';
  }
  if (pass.stage === 'DELETED') return record.retention_state === 'Deleted' ? equals('retention_state', 'Deleted') : 'state';
  return record.retention_state === undefined ? absent('retention_state') : 'state';
}

/** The marker rewritten at the record's current time, when the record moved on since (an alert that occurred again). */
function movedOn(marker: RetentionDueItem, record: RetainedRecord): RetentionDueItem | undefined {
  const base = record.bases[marker.kind];
  return base !== undefined && base > marker.base_time ? { ...marker, base_time: base } : undefined;
}

/** Receipts and transfers a payload's audit holds (read only when the rule asks for some). */
async function receiptsAndTransfers(deps: DecisionDependencies, client: string, reference: string) {
  let receipts = 0;
  let transfers = 0;
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({
      partition: keys.payload.key(client, reference).pk,
      sort: { beginsWith: keys.payload.auditPrefix },
      ...(startKey ? { startKey } : {}),
    });
    for (const action of page.items.map(readPayloadAuditAction)) {
      if (action === 'receipt') receipts += 1;
      if (action === 'transfer') transfers += 1;
    }
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return { receipts, transfers };
}

/**
 * The checks beyond a record's state, for one tenant (remembering the holds and people it read, so a walk over many
 * records of the same people reads each fact once): an active legal hold that covers it, a payload short of its
 * required receipts or transfers (before deletion), and, before a payload's destruction, its object's own lock.
 */
export function disposalRefusal(deps: DecisionDependencies, client: string): Refusal {
  const holdOf = recordHolds(deps, client);
  return async (pass, item, record) => {
    const hold = await holdOf(item);
    if (hold !== undefined) return { outcome: 'held', hold };
    if (record.recordType !== 'PayloadData') return undefined;
    const { requiredReceipts, requiredTransfers } = pass.rule;
    if (pass.stage === 'LIVE' && (requiredReceipts > 0 || requiredTransfers > 0)) {
      const done = await receiptsAndTransfers(deps, client, record.reference);
      if (done.receipts < requiredReceipts || done.transfers < requiredTransfers) return { outcome: 'requirements' };
    }
    if (pass.action !== 'Destroyed') return undefined;
    // The object's own lock decides too (docs/decisions.md "Object retention"): a legal hold placed since the coverage
    // was read, or a retain-until still ahead after a shortened policy, leaves the recording for a later run.
    const objectKey = payloadObjectKey(client, record.reference);
    if ((await deps.blobs.getLegalHold('processed', objectKey)) === true) return { outcome: 'held' };
    const retention = await deps.blobs.getRetention('processed', objectKey);
    if (retention && retention.retainUntil.getTime() > deps.clock.now().getTime()) return { outcome: 'locked' };
    return undefined;
  };
}

/** One tenant's pass as it is decided: the tenant, what the pass asks, and the checks beyond state (`disposalRefusal`). */
export interface JudgedPass {
  client: string;
  pass: DuePass;
  refusal: Refusal;
}

/**
 * What the run does with the record `marker` names (`item` as read; undefined when it is gone) in `pass`: dispose of
 * it, or keep it and why. Reads (holds, requirements, the object's lock) but never writes.
 */
export async function decideDisposal(deps: DecisionDependencies, judged: JudgedPass, marker: RetentionDueItem, item: TableItem | undefined): Promise<Decision> {
  const { client, pass, refusal } = judged;
  const retained = item === undefined ? undefined : readRetainedItem(item);
  const record = item === undefined || retained === undefined ? undefined : retainedRecordFrom(item, retained);
  if (item === undefined || retained === undefined || record === undefined) return { outcome: 'stale' };
  const rebased = movedOn(marker, record);
  if (rebased !== undefined && rebased.base_time > pass.cutoff) return { outcome: 'rebased', marker: rebased };
  const condition = stateCondition(item, retained, pass);
  if (typeof condition === 'string') return { outcome: condition };
  const refused = await refusal(pass, item, record);
  if (refused !== undefined) return refused;
  const own = await recordChangesOf(retained.entity)?.refusal?.(deps, client, item);
  if (own !== undefined) return { outcome: own as KeptOutcome };
  return {
    outcome: pass.action === 'Deleted' ? 'deleted' : 'destroyed',
    retained,
    record,
    condition,
    marker: rebased ?? marker,
  };
}
