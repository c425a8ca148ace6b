import * as z from 'zod';
import { MetricScope } from '#shared/constants/devices.ts';
import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { readItem } from './read-item.ts';

/** The prefix of a bucket's per-type counters (`n_<payload type>`, ADDed per payload). */
export const PAYLOAD_COUNT_PREFIX = 'n_';

/**
 * One device's payload counts in one period of one metric scope (lambdas/metrics/record-payload-metric.ts): the
 * labels, the first and last payload time, and a flat counter per payload type (ADD creates a missing number; a map
 * would need the item first). `group` is the group of the device's latest payload (the group scope filters by it).
 */
const PayloadMetricsLabels = z.object({
  device_reference: z.string(),
  scope: MetricScope,
  period: z.string(),
  group: z.string().optional(),
  first_occurrence: z.string().optional(),
  last_occurrence: z.string().optional(),
});

export type PayloadMetricsItem = z.infer<typeof PayloadMetricsLabels> & {
  /** Payloads per type (from the counter names). */
  counts: Record<string, number>;
};

/** The per-type counters of an item, by payload type, and a schema that refuses those that are not numbers. */
function typeCounters(item: TableItem): { counts: Record<string, number>; counters: z.ZodObject } {
  const counts: Record<string, number> = {};
  const problems: string[] = [];
  for (const [attribute, value] of Object.entries(item)) {
    if (!attribute.startsWith(PAYLOAD_COUNT_PREFIX)) continue;
    if (typeof value === 'number') counts[attribute.slice(PAYLOAD_COUNT_PREFIX.length)] = value;
    else problems.push(attribute);
  }
  // A counter that is not a number fails the read like any malformed attribute, naming it.
  return { counts, counters: z.object(Object.fromEntries(problems.map((attribute) => [attribute, z.number()]))) };
}

export function readPayloadMetrics(item: TableItem): PayloadMetricsItem {
  const { counts, counters } = typeCounters(item);
  return { ...readItem('PayloadMetrics', PayloadMetricsLabels.and(counters), item), counts };
}

/**
 * A tenant's payload totals (`keys.metrics.totals`, for the internal statistics): every payload counted in
 * `payloads`, and per type in the same `n_<payload type>` counters as a bucket, ADDed per payload (0 until the first).
 */
const PayloadTotalsCount = z.object({ payloads: z.number().default(0) });

export type PayloadTotalsItem = z.infer<typeof PayloadTotalsCount> & {
  /** Payloads per type (from the counter names). */
  counts: Record<string, number>;
};

export function readPayloadTotals(item: TableItem): PayloadTotalsItem {
  const { counts, counters } = typeCounters(item);
  return { ...readItem('MetricTotals', PayloadTotalsCount.and(counters), item), counts };
}

/** The bucket as the API shows it (a drifted negative count reads as 0). */
export function toDevicePayloadMetrics(stored: PayloadMetricsItem): DevicePayloadMetrics {
  return {
    device_reference: stored.device_reference,
    scope: stored.scope,
    period: stored.period,
    counts: Object.fromEntries(Object.entries(stored.counts).map(([type, count]) => [type, Math.max(0, Math.trunc(count))])),
    ...(stored.first_occurrence === undefined ? {} : { first_occurrence: stored.first_occurrence }),
    ...(stored.last_occurrence === undefined ? {} : { last_occurrence: stored.last_occurrence }),
  };
}
