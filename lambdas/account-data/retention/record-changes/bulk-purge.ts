import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type QuerySpec, type TableItem, type TransactOperation } from '#core/ports/table-store.ts';
import { readRetainedAs } from '#core/store/entities/retained-item.ts';
import { readRetentionDue, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { keys } from '#core/store/keys.ts';
import { caseParts } from './case.ts';
import { removeProductionObjects } from './case-objects.ts';
import { migrationParts } from './migration.ts';
import { transferParts } from './transfer.ts';
import { supervisionItemParts } from './supervision-item.ts';

/**
 * Destroying a record with many parts (a migration's 100,000 row results, a transfer's file items) cannot be one
 * transaction. As with a destroyed payload's objects: the disposal's transaction marks the record Destroyed, writes its
 * disposal record and puts a `PURGE` marker (kind `purge`, one partition per tenant and record type). The retention
 * job then walks the parts as steps of its own, one page (`batch` items) at a time, so its time budget and its
 * continuation (the step and Query position) carry a large record across invocations. A last step per type removes
 * what the record names outside the table (a migration's export file) and then, once no part is left, the record's
 * item and its marker together. A run cut short leaves the marker: the next one goes on.
 */

type PurgeDependencies = Pick<Dependencies, 'table' | 'blobs' | 'logger'>;

interface PurgedInBatches {
  /** The entity of the record. */
  entity: 'Migration' | 'Transfer' | 'SupervisionItem' | 'Case';
  /** The partition holding the record's parts (it may hold the record's own item too: that one is removed last). */
  parts(client: string, reference: string): QuerySpec;
  /** Removes what the record names outside the table; false when that failed (tried again by the next run). */
  objects?(deps: PurgeDependencies, client: string, item: TableItem): Promise<boolean>;
  /** Removes what parts name outside the table; answers the parts whose objects are gone (only those are removed). */
  partObjects?(deps: PurgeDependencies, client: string, parts: readonly TableItem[]): Promise<TableItem[]>;
}

/** A migration's export file, every version (the raw bucket holds it under the migration's `object_key`). */
async function exportFile(deps: PurgeDependencies, client: string, item: TableItem): Promise<boolean> {
  const migration = readRetainedAs('Migration', item);
  if (migration.object_key === undefined) return true;
  try {
    await deps.blobs.destroy('raw', migration.object_key);
    return true;
  } catch (error) {
    deps.logger.warn('retention: export file of a destroyed migration not removed yet', { client, migration_reference: migration.migration_reference, error: String(error) });
    return false;
  }
}

const PURGED_IN_BATCHES: Readonly<Record<string, PurgedInBatches>> = {
  LegacyMigrationData: { entity: 'Migration', parts: migrationParts, objects: exportFile },
  TransferableData: { entity: 'Transfer', parts: transferParts },
  SupervisionData: { entity: 'SupervisionItem', parts: supervisionItemParts },
  // A case's productions, on their by-case index, with the packages the downloads left (record-changes/case.ts).
  CaseData: { entity: 'Case', parts: caseParts, partObjects: removeProductionObjects },
};

export function purgedInBatches(recordType: string): boolean {
  return Object.hasOwn(PURGED_IN_BATCHES, recordType);
}

/**
 * Records per type whose parts one invocation walks (oldest destruction first; the rest wait for a later one). The
 * job resumes by step number, so every invocation has exactly this many parts steps per type, empty ones included:
 * a finished record's marker leaving the list then shifts no later step.
 */
const PARTS_STEPS = 10;
/** Deletions to a transaction (DynamoDB's bound), and transactions at once. */
const TRANSACTION_DELETES = 100;
const PARALLEL_TRANSACTIONS = 4;

/** One step of the job: a Query to walk, page by page, and what to do with each page. */
export interface PurgeStep {
  query: QuerySpec;
  act: (items: readonly TableItem[]) => Promise<void>;
}

const sameKey = (a: { pk: string; sk: string }, b: { pk: string; sk: string }) => a.pk === b.pk && a.sk === b.sk;

async function removeParts(deps: PurgeDependencies, items: readonly TableItem[]): Promise<void> {
  const deletes: TransactOperation[] = items.map((item) => ({ kind: 'delete', key: { pk: item.pk, sk: item.sk } }));
  const groups: TransactOperation[][] = [];
  for (let start = 0; start < deletes.length; start += TRANSACTION_DELETES) groups.push(deletes.slice(start, start + TRANSACTION_DELETES));
  for (let start = 0; start < groups.length; start += PARALLEL_TRANSACTIONS) {
    await Promise.all(groups.slice(start, start + PARALLEL_TRANSACTIONS).map((group) => deps.table.transactWrite(group)));
  }
}

/** Ends one record's purge when its parts are gone: its outside objects, then its item and marker at once. */
async function finishPurge(deps: PurgeDependencies, client: string, type: PurgedInBatches, marker: RetentionDueItem): Promise<boolean> {
  const markerKey = keys.retentionDue.key(client, { pk: marker.record_pk, sk: marker.record_sk }, marker.kind);
  const record = await deps.table.get({ pk: marker.record_pk, sk: marker.record_sk }, { consistent: true });
  if (record === undefined || readRetainedAs(type.entity, record).retention_state !== 'Destroyed') {
    // Gone by other means (or never destroyed): the marker is all that is left of this purge.
    await deps.table.delete(markerKey);
    return false;
  }
  const parts = type.parts(client, marker.reference);
  // An index cannot be read consistently: one that still shows a part just removed only delays the finish to a later run.
  const left = (await deps.table.query({ ...parts, limit: 2, consistent: parts.index === undefined })).items;
  if (left.some((item) => !sameKey(item, record))) return false;
  if (type.objects !== undefined && !(await type.objects(deps, client, record))) return false;
  try {
    await deps.table.transactWrite([
      { kind: 'delete', key: { pk: record.pk, sk: record.sk }, condition: { kind: 'expression', expression: '#state = :destroyed', names: { '#state': 'retention_state' }, values: { ':destroyed': 'Destroyed' } } },
      { kind: 'delete', key: markerKey },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
  return true;
}

/**
 * The job's purge steps for one tenant: per record type, one step over each purging record's parts (PARTS_STEPS
 * slots), then one over its PURGE markers that finishes those whose parts are gone.
 * `purged` counts the records finished.
 */
export async function batchPurgeSteps(deps: PurgeDependencies, client: string, purged: (count: number) => void): Promise<PurgeStep[]> {
  const steps: PurgeStep[] = [];
  for (const [recordType, type] of Object.entries(PURGED_IN_BATCHES)) {
    const markers = keys.retentionDue.list(client, { recordType, kind: 'purge', stage: 'PURGE' });
    const purging = (await deps.table.query({ ...markers, limit: PARTS_STEPS })).items.map(readRetentionDue);
    for (let slot = 0; slot < PARTS_STEPS; slot += 1) {
      const marker = purging[slot];
      // An empty slot reads nothing: a range no marker's sort key (a time) falls in.
      const query: QuerySpec = marker === undefined ? { ...markers, sort: { beginsWith: '~' } } : type.parts(client, marker.reference);
      const record = marker === undefined ? undefined : { pk: marker.record_pk, sk: marker.record_sk };
      steps.push({
        query,
        act: async (items) => {
          const parts = items.filter((item) => record === undefined || !sameKey(item, record));
          await removeParts(deps, type.partObjects === undefined || parts.length === 0 ? parts : await type.partObjects(deps, client, parts));
        },
      });
    }
    steps.push({
      query: markers,
      act: async (items) => {
        for (const marker of items.map(readRetentionDue)) if (await finishPurge(deps, client, type, marker)) purged(1);
      },
    });
  }
  return steps;
}
