import { ConditionFailedError } from '../../core/ports/table-store.ts';
import type { PayloadItem } from '../../core/store/entities/payload.ts';
import { keys } from '../../core/store/keys.ts';
import { recordPayloadMetrics, type PayloadMetricInput } from '../../metrics/record-payload-metric.ts';
import type { RowImporterDependencies } from './types.ts';

/** Recordings counted together: one metrics update per bucket they share instead of six per recording. */
const BATCH_SIZE = 200;
/** Claims in flight at once. */
const CLAIM_CONCURRENCY = 16;

/**
 * The payload metrics of the recordings an import stores, counted in batches. A recording is stored with
 * `metrics_pending` and counted once: the flush claims each with a conditional REMOVE of the flag (as processing does)
 * and counts only those it claimed. Until the flush the flag stays on the item, so an import that stops before it
 * (a crash, a timeout) leaves the count to the next import of the row, which finds the flag; a count is never doubled,
 * and lost only if the process dies between a claim and its batch's write.
 */
export interface MetricsBatch {
  add(item: PayloadItem): Promise<void>;
  flush(): Promise<void>;
}

export function createMetricsBatch(deps: RowImporterDependencies, client: string): MetricsBatch {
  let pending: PayloadItem[] = [];

  const claim = async (item: PayloadItem): Promise<boolean> => {
    try {
      await deps.table.update(
        keys.payload.key(client, item.payload_reference),
        { remove: ['metrics_pending'] },
        { condition: { kind: 'expression', expression: '#mp = :t', names: { '#mp': 'metrics_pending' }, values: { ':t': true } } },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  };

  const flush = async () => {
    const batch = pending;
    pending = [];
    const counted: PayloadMetricInput[] = [];
    const claimed: PayloadItem[] = [];
    for (let at = 0; at < batch.length; at += CLAIM_CONCURRENCY) {
      const part = batch.slice(at, at + CLAIM_CONCURRENCY);
      const answers = await Promise.all(part.map(claim));
      part.forEach((item, index) => {
        if (answers[index] === true) claimed.push(item);
      });
    }
    for (const item of claimed) {
      counted.push({
        device_reference: item.device_reference,
        payload_type: item.payload_type,
        time: item.payload_time ?? '',
        ...(item.group === undefined ? {} : { group: item.group }),
      });
    }
    await recordPayloadMetrics(deps, client, counted);
  };

  return {
    async add(item) {
      if (item.metrics_pending !== true || item.payload_state !== 'Processed') return;
      // The same recording twice in a batch (a row read again) is claimed once: the second claim fails.
      pending.push(item);
      if (pending.length >= BATCH_SIZE) await flush();
    },
    flush,
  };
}
