import * as z from 'zod';
import { MetricScope } from '#shared/constants/devices.ts';
import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ListKey } from '../key-parts.ts';
import { readCounterItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Payload metrics (lambdas/metrics): one partition per tenant and scope, sort key `<period>#<device>`, so a
 * date range is a key condition on the period prefix. Periods sort as text (`2024-05-01`, `2024-W18`, `2024-05`,
 * `2024`, `all`). The tenant's running totals (`MetricTotals`) are one item apart.
 */
export const metricsKeys = {
  item: (client: string, scope: string, period: string, deviceReference: string): ItemKey => ({
    pk: `${tenantPrefix(client)}METRICS#${part(scope)}`,
    sk: `${part(period)}#${part(deviceReference)}`,
  }),
  list: (client: string, scope: string): ListKey => list(undefined, `${tenantPrefix(client)}METRICS#${part(scope)}`),
  totals: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}METRICS_TOTALS`, sk: 'TOTALS' }),
};

/** The prefix of a bucket's per-type counters (`n_<payload type>`, ADDed per payload). */
export const PAYLOAD_COUNT_PREFIX = 'n_';

/**
 * One device's payload counts in one period of one metric scope (lambdas/metrics/record-payload-metric.ts): the
 * labels, the first and last payload time, and a flat counter per payload type (ADD creates a missing number; a map
 * would need the item first). `group` is the group of the device's latest payload (the group scope filters by it).
 */
const payloadMetricsLabelsSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  device_reference: z.string(),
  scope: MetricScope,
  period: z.string(),
  group: z.string().optional(),
  first_occurrence: z.string().optional(),
  last_occurrence: z.string().optional(),
}));

export type PayloadMetricsItem = z.infer<ReturnType<typeof payloadMetricsLabelsSchema>> & {
  /** Payloads per type (from the counter names). */
  counts: Record<string, number>;
};

/** The per-type counters' payload type (`n_<payload type>`), or undefined for any other attribute. */
const payloadTypeOf = (attribute: string) => (attribute.startsWith(PAYLOAD_COUNT_PREFIX) ? attribute.slice(PAYLOAD_COUNT_PREFIX.length) : undefined);

export function readPayloadMetrics(item: TableItem): PayloadMetricsItem {
  const { counters, ...labels } = readCounterItem('PayloadMetrics', payloadMetricsLabelsSchema(), item, payloadTypeOf);
  return { ...labels, counts: counters };
}

/**
 * A tenant's payload totals (`metricsKeys.totals`, for the internal statistics): every payload counted in
 * `payloads`, and per type in the same `n_<payload type>` counters as a bucket, ADDed per payload (0 until the first).
 */
const payloadTotalsCountSchema = /* @__PURE__ */ onFirstUse(() => z.object({ payloads: z.number().default(0) }));

export type PayloadTotalsItem = z.infer<ReturnType<typeof payloadTotalsCountSchema>> & {
  /** Payloads per type (from the counter names). */
  counts: Record<string, number>;
};

export function readPayloadTotals(item: TableItem): PayloadTotalsItem {
  const { counters, ...totals } = readCounterItem('MetricTotals', payloadTotalsCountSchema(), item, payloadTypeOf);
  return { ...totals, counts: counters };
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

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const payloadMetricsModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.payloadMetrics,
  title: 'Payload metrics bucket (one per scope, period and device)',
  module: 'payload-metrics.ts',
  indexes: {},
  items: [{ example: () => metricsKeys.item(EXAMPLE_CLIENT, '<scope>', '<period>', '<device_reference>') }],
  accessPatterns: [
    { name: 'A scope\'s buckets in a date range', serves: '`GET metrics/{scope}` (BETWEEN on the period prefix)', builders: ['keys.metrics.list'], example: () => metricsKeys.list(EXAMPLE_CLIENT, '<scope>') },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const metricTotalsModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.metricTotals,
  title: 'A tenant\'s payload totals',
  module: 'payload-metrics.ts',
  indexes: {},
  items: [{ example: () => metricsKeys.totals(EXAMPLE_CLIENT) }],
  accessPatterns: [{ name: 'A tenant\'s totals', serves: '`GET /statistics`', builders: ['keys.metrics.totals'], example: () => metricsKeys.totals(EXAMPLE_CLIENT) }],
}));
