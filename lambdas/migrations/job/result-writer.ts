import type { Dependencies } from '#core/dependencies.ts';
import { migrationResultToItem } from '#core/store/entities/migration-result.ts';
import type { MigrationItem, ResultTally } from '#core/store/entities/migration.ts';
import { keys } from '#core/store/keys.ts';
import { ConditionFailedError, type TransactOperation } from '#core/ports/table-store.ts';
import type { MigrationProgress } from '#shared/contract/entities/account-data.ts';
import type { MigrationEntity, RowResult } from '../import/index.ts';

/** A transaction holds at most 100 writes: the results of a batch and the migration's own update. */
const MAX_RESULTS_PER_BATCH = 99;
/** Results written together at most this often apart, so progress moves on screen even when rows are slow. */
const FLUSH_INTERVAL_MS = 2_000;

/** Counter names per entity, as the contract's `counters` shows them (`devices_total`, `devices_new_or_updated`, …). */
const COUNTER_OF: Record<MigrationEntity, string> = { Device: 'devices', DeviceUser: 'device_users', Group: 'groups', Payload: 'payloads' };

/** A result's message is kept to this many characters: a row's problems are named, not a whole file's. */
const MAX_MESSAGE = 2_000;
const clip = (message: string) => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);

/** Another invocation moved the checkpoint first (or the migration ended): this one stops without writing. */
export class RunSupersededError extends Error {
  override readonly name = 'RunSupersededError';
}

export interface ResultWriter {
  /** The last row whose results are all written. */
  readonly checkpoint: number;
  /** Every error result so far (this invocation's and those before it). */
  readonly errorCount: number;
  /** Queues a row's results; writes the batch when it is full or due. */
  add(row: number, results: readonly RowResult[], bytesRead: number): Promise<void>;
  /** Writes what is queued (a no-op when nothing is). */
  flush(): Promise<void>;
  /** The counters and tallies as written so far (for the migration's final update). */
  snapshot(): Pick<MigrationItem, 'counters' | 'tallies' | 'checkpoint_row' | 'progress'>;
}

/**
 * Writes row results, each its own item, in transactions with the migration's counters, tallies, progress and
 * checkpoint. The transaction holds only if the checkpoint is still the one this invocation started from (and the
 * migration still Pending), so two invocations never both write a row, and a row is resulted exactly once: results
 * are never written without the checkpoint that says so, nor the checkpoint without them. A failed write throws:
 * nothing is dropped, the invocation fails and a retry resumes after the last checkpoint.
 */
export function createResultWriter(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  migration: MigrationItem,
  bytesTotal: number,
): ResultWriter {
  const counters: Record<string, number> = { ...migration.counters };
  const tallies: Record<string, ResultTally> = Object.fromEntries(Object.entries(migration.tallies).map(([type, tally]) => [type, { ...tally }]));
  let checkpoint = migration.checkpoint_row;
  let progress: MigrationProgress | undefined = migration.progress;
  let errorCount = Object.values(tallies).reduce((sum, tally) => sum + (tally.kind === 'error' ? tally.count : 0), 0);
  let queued: TransactOperation[] = [];
  let queuedRow = checkpoint;
  let queuedBytes = progress?.bytes_read ?? 0;
  let lastFlush = Date.now();

  const count = (result: RowResult) => {
    if (result.entity !== undefined) {
      // Both counters of an entity appear with its first result, so "none new or updated" reads 0, not absent.
      const name = COUNTER_OF[result.entity];
      counters[`${name}_total`] = (counters[`${name}_total`] ?? 0) + 1;
      counters[`${name}_new_or_updated`] = (counters[`${name}_new_or_updated`] ?? 0) + (result.isNewOrUpdated ? 1 : 0);
    }
    const tally = tallies[result.type];
    if (tally === undefined) {
      tallies[result.type] = {
        kind: result.kind,
        count: 1,
        ...(result.reference === undefined ? {} : { reference: result.reference }),
        ...(result.message === undefined ? {} : { message: clip(result.message) }),
      };
    } else tally.count += 1;
    if (result.kind === 'error') errorCount += 1;
  };

  const flush = async () => {
    if (queuedRow === checkpoint) return;
    progress = { rows_read: queuedRow, bytes_read: Math.min(queuedBytes, bytesTotal), bytes_total: bytesTotal, updated_at: deps.clock.now().toISOString() };
    const update: TransactOperation = {
      kind: 'update',
      key: keys.migration.key(migration.client, migration.migration_reference),
      update: { set: { counters, tallies, checkpoint_row: queuedRow, progress } },
      condition: {
        kind: 'expression',
        expression: 'checkpoint_row = :from AND migration_state = :pending',
        values: { ':from': checkpoint, ':pending': 'Pending' },
      },
    };
    try {
      await deps.table.transactWrite([...queued, update]);
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new RunSupersededError(`Migration ${migration.migration_reference} moved on without this run`);
      throw error;
    }
    checkpoint = queuedRow;
    queued = [];
    lastFlush = Date.now();
  };

  return {
    get checkpoint() {
      return checkpoint;
    },
    get errorCount() {
      return errorCount;
    },
    async add(row, results, bytesRead) {
      if (queued.length + results.length > MAX_RESULTS_PER_BATCH) await flush();
      if (results.length > MAX_RESULTS_PER_BATCH) throw new Error(`Row ${row} gave ${results.length} results: more than one transaction holds`);
      results.forEach((result, index) => {
        count(result);
        queued.push({
          kind: 'put',
          item: migrationResultToItem({
            client: migration.client,
            migration_reference: migration.migration_reference,
            row,
            index,
            kind: result.kind,
            type: result.type,
            ...(result.entity === undefined ? {} : { result_entity: result.entity }),
            ...(result.reference === undefined ? {} : { reference: result.reference }),
            ...(result.message === undefined ? {} : { message: clip(result.message) }),
            is_new_or_updated: result.isNewOrUpdated,
          }),
        });
      });
      queuedRow = row;
      queuedBytes = bytesRead;
      if (queued.length >= MAX_RESULTS_PER_BATCH || Date.now() - lastFlush >= FLUSH_INTERVAL_MS) await flush();
    },
    flush,
    snapshot: () => ({ counters, tallies, checkpoint_row: checkpoint, ...(progress === undefined ? {} : { progress }) }),
  };
}
