import { ConditionFailedError, type ItemKey, type TableItem, type TransactOperation, type WriteCondition } from '../../core/ports/table-store.ts';
import type { PayloadItem } from '../../core/store/entities/payload.ts';
import { readPayloadMetrics } from '../../core/store/entities/payload-metrics.ts';
import { ENTITY, keys } from '../../core/store/keys.ts';
import { payloadMetricBuckets, recordInBucket, type BucketBatch, type PayloadMetricInput } from '../../metrics/public.ts';
import { inParallel } from '../../core/in-parallel.ts';
import type { RowImporterDependencies } from './types.ts';

/**
 * Recordings counted together at most: one write per bucket they share instead of one per recording and bucket. The
 * job's batches flush sooner, at the end of each (row-importer.ts), so a resulted row is a counted one.
 */
const BATCH_SIZE = 200;
/** A transaction holds at most this many writes (DynamoDB's limit). */
const MAX_TRANSACTION_WRITES = 100;
/** Transactions in flight at once (their items are distinct). */
const WRITE_CONCURRENCY = 4;

/**
 * The payload metrics of the recordings an import stores, counted in batches. A recording is stored with
 * `metrics_pending` and counted once: the flush claims each with a conditional REMOVE of the flag (as processing does)
 * and counts only those it claimed. Until the flush the flag stays on the item, so an import that stops before it
 * (a crash, a timeout) leaves the count to the next import of the row, which finds the flag; a count is never doubled,
 * and lost only if the process dies between a claim and its batch's write.
 *
 * Both steps are written in transactions of up to 100 writes rather than one request per item: the claims of up to
 * 100 recordings at once, and the buckets (read first with BatchGet, so each is written once with its counts, first and
 * last occurrence, on the condition that those are still as read). A transaction whose condition fails (a recording
 * claimed elsewhere, a bucket counted meanwhile by processing) is done again item by item (`recordInBucket`).
 */
export interface MetricsBatch {
  add(item: PayloadItem): Promise<void>;
  flush(): Promise<void>;
}

export function createMetricsBatch(deps: RowImporterDependencies, client: string): MetricsBatch {
  let pending: PayloadItem[] = [];

  const claimOperation = (item: PayloadItem): TransactOperation => ({
    kind: 'update',
    key: keys.payload.key(client, item.payload_reference),
    update: { remove: ['metrics_pending'] },
    condition: STILL_PENDING,
  });

  const claim = async (item: PayloadItem): Promise<boolean> => {
    try {
      await deps.table.update(keys.payload.key(client, item.payload_reference), { remove: ['metrics_pending'] }, { condition: STILL_PENDING });
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  };

  /** The recordings this flush claimed: by transaction, or one by one in a transaction that met a claim elsewhere. */
  const claimAll = async (batch: readonly PayloadItem[]): Promise<PayloadItem[]> => {
    const claimed: PayloadItem[] = [];
    await inParallel(chunks(batch, MAX_TRANSACTION_WRITES), WRITE_CONCURRENCY, async (chunk) => {
      try {
        await deps.table.transactWrite(chunk.map(claimOperation));
        claimed.push(...chunk);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        for (const item of chunk) if (await claim(item)) claimed.push(item);
      }
    });
    return claimed;
  };

  /** Each bucket written once: counts added, first and last occurrence moved, on the condition they are as read. */
  const countAll = async (inputs: readonly PayloadMetricInput[]) => {
    if (inputs.length === 0) return;
    const { buckets, totals } = payloadMetricBuckets(client, inputs);
    const stored = new Map((await deps.table.batchGet(buckets.map((bucket) => bucket.key), { consistent: true })).map((item) => [idOf(item), item]));
    const totalsUpdate = { set: { entity: ENTITY.metricTotals }, add: totals };
    const totalsOperation: TransactOperation = { kind: 'update', key: keys.metrics.totals(client), update: totalsUpdate };
    const writes = buckets.map((bucket) => ({ bucket, operation: bucketOperation(bucket, stored.get(idOf(bucket.key))) }));
    const parts = chunks(writes, MAX_TRANSACTION_WRITES - 1);
    await inParallel(parts, WRITE_CONCURRENCY, async (part, index) => {
      const withTotals = index === 0;
      try {
        await deps.table.transactWrite([...part.map((write) => write.operation), ...(withTotals ? [totalsOperation] : [])]);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        for (const { bucket } of part) await recordInBucket(deps, bucket);
        if (withTotals) await deps.table.update(keys.metrics.totals(client), totalsUpdate);
      }
    });
  };

  const flush = async () => {
    // The same recording twice in a batch (a row read again) is claimed once; a transaction may name an item once.
    const batch = [...new Map(pending.map((item) => [item.payload_reference, item])).values()];
    pending = [];
    const claimed = await claimAll(batch);
    await countAll(
      claimed.map((item) => ({
        device_reference: item.device_reference,
        payload_type: item.payload_type,
        time: item.payload_time ?? '',
        ...(item.group === undefined ? {} : { group: item.group }),
      })),
    );
  };

  return {
    async add(item) {
      if (item.metrics_pending !== true || item.payload_state !== 'Processed') return;
      pending.push(item);
      if (pending.length >= BATCH_SIZE) await flush();
    },
    flush,
  };
}

/** The claim of a count: the flag is still on the recording (processing or another import may have taken it). */
const STILL_PENDING: WriteCondition = { kind: 'expression', expression: '#mp = :t', names: { '#mp': 'metrics_pending' }, values: { ':t': true } };

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

function chunks<T>(all: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let at = 0; at < all.length; at += size) parts.push(all.slice(at, at + size));
  return parts;
}

/**
 * A bucket's write: its labels and counts, the occurrences widened to the batch's, on the condition that the bucket is
 * as read (absent, or with the occurrences read), so a count made meanwhile fails it rather than being overwritten.
 */
function bucketOperation(bucket: BucketBatch, stored: TableItem | undefined): TransactOperation {
  const seen = stored === undefined ? undefined : readPayloadMetrics(stored);
  const seenFirst = seen?.first_occurrence;
  const seenLast = seen?.last_occurrence;
  const first = seenFirst !== undefined && seenFirst < bucket.first ? seenFirst : bucket.first;
  const last = seenLast !== undefined && seenLast > bucket.last ? seenLast : bucket.last;
  const update = { set: { ...bucket.labels, first_occurrence: first, last_occurrence: last }, add: bucket.add };
  if (stored === undefined) return { kind: 'update', key: bucket.key, update, condition: { kind: 'item-not-exists' } };
  const names = { '#fo': 'first_occurrence', '#lo': 'last_occurrence' };
  const values: Record<string, unknown> = {};
  const clause = (name: '#fo' | '#lo', seen: string | undefined, placeholder: string) => {
    if (seen === undefined) return `attribute_not_exists(${name})`;
    values[placeholder] = seen;
    return `${name} = ${placeholder}`;
  };
  const expression = `${clause('#fo', seenFirst, ':fo')} AND ${clause('#lo', seenLast, ':lo')}`;
  return { kind: 'update', key: bucket.key, update, condition: { kind: 'expression', expression, names, ...(Object.keys(values).length > 0 ? { values } : {}) } };
}
