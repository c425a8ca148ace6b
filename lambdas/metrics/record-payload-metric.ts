import * as z from 'zod';
import { Instant } from './instant.ts';
import { PayloadType } from '#shared/constants/payloads.ts';
import { DeviceReference } from '#shared/contract/fields.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { ConditionFailedError, type ItemKey, type TableItem } from '../core/ports/table-store.ts';
import { ENTITY, keys } from '../core/store/keys.ts';
import { ALL_SCOPES, periodOf } from './periods.ts';

/** Count attributes are flat (`n_<payload type>`): ADD creates a missing number, but not a path under a missing map. */
import { PAYLOAD_COUNT_PREFIX as COUNT_PREFIX, readPayloadMetrics } from '../core/store/entities/payload-metrics.ts';

/** What payload processing reports for each payload it stores. */
export const PayloadMetricInput = z.strictObject({
  device_reference: DeviceReference,
  payload_type: PayloadType,
  /** The payload's own time (payload_time), any ISO 8601 instant. */
  time: Instant,
  /** The payload's group: the bucket carries its device's latest group, so metrics lists honour group scope. */
  group: z.string().min(1).optional(),
});
export type PayloadMetricInput = z.input<typeof PayloadMetricInput>;

type Deps = Pick<Dependencies, 'table'>;

const isConditionFailure = (error: unknown) => error instanceof ConditionFailedError;

/**
 * One bucket: ADD the counts, and move last_occurrence forward in the same update when the payloads are the latest
 * (the usual case: one write). Older payloads arriving late fail that condition and add without it. Then
 * first_occurrence moves back only if the earliest of them is earlier (a conditional SET; losing a race to an even
 * earlier one is fine). Every step is atomic on its own, so concurrent calls never lose a count.
 */
export async function recordInBucket(deps: Deps, { key, labels, add, first, last }: BucketBatch): Promise<void> {
  let item: TableItem | undefined;
  try {
    item = await deps.table.update(
      key,
      { set: { ...labels, last_occurrence: last }, add },
      { condition: { kind: 'expression', expression: 'attribute_not_exists(#lo) OR #lo <= :t', names: { '#lo': 'last_occurrence' }, values: { ':t': last } } },
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    item = await deps.table.update(key, { set: labels, add });
  }
  const known = item === undefined ? undefined : readPayloadMetrics(item).first_occurrence;
  if (known !== undefined && known <= first) return;
  try {
    await deps.table.update(
      key,
      { set: { first_occurrence: first } },
      { condition: { kind: 'expression', expression: 'attribute_not_exists(#fo) OR #fo > :t', names: { '#fo': 'first_occurrence' }, values: { ':t': first } } },
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Counts one payload of a device in every metric scope's period bucket (Daily, Weekly, Monthly, Yearly, Summary)
 * and in the tenant's totals (internal statistics). Called by payload processing once per stored payload.
 * Not idempotent: a retried call counts again, so the caller records after its own write succeeded, once.
 * Bad input throws a ZodError: it is a bug of the calling code, not input of a user.
 */
export async function recordPayloadMetric(deps: Deps, client: string, input: PayloadMetricInput): Promise<void> {
  const { device_reference, payload_type, time, group } = PayloadMetricInput.parse(input);
  const iso = time.toISOString();
  const countAttribute = `${COUNT_PREFIX}${payload_type}`;
  await Promise.all([
    ...ALL_SCOPES.map((scope) => {
      const period = periodOf(scope, time);
      return recordInBucket(deps, {
        key: keys.metrics.item(client, scope, period, device_reference),
        labels: { entity: ENTITY.payloadMetrics, device_reference, scope, period, ...(group === undefined ? {} : { group }) },
        add: { [countAttribute]: 1 },
        first: iso,
        last: iso,
      });
    }),
    deps.table.update(keys.metrics.totals(client), { set: { entity: ENTITY.metricTotals }, add: { payloads: 1, [countAttribute]: 1 } }),
  ]);
}

/** One bucket's share of a batch: its labels, counts by attribute, and the earliest and latest payload times. */
export interface BucketBatch {
  key: ItemKey;
  labels: Record<string, unknown>;
  add: Record<string, number>;
  first: string;
  last: string;
}

/**
 * The buckets a batch of payloads counts in (each with its share) and the tenant's totals: a legacy migration counts
 * thousands with ONE update per bucket they share (lambdas/migrations/import/metrics-batch.ts), not six per payload.
 */
export function payloadMetricBuckets(client: string, inputs: readonly PayloadMetricInput[]): { buckets: BucketBatch[]; totals: Record<string, number> } {
  const buckets = new Map<string, BucketBatch>();
  const totals: Record<string, number> = { payloads: 0 };
  for (const input of inputs) {
    const { device_reference, payload_type, time, group } = PayloadMetricInput.parse(input);
    const iso = time.toISOString();
    const countAttribute = `${COUNT_PREFIX}${payload_type}`;
    totals.payloads = (totals.payloads ?? 0) + 1;
    totals[countAttribute] = (totals[countAttribute] ?? 0) + 1;
    for (const scope of ALL_SCOPES) {
      const period = periodOf(scope, time);
      const key = keys.metrics.item(client, scope, period, device_reference);
      const id = `${key.pk}\u0000${key.sk}`;
      const bucket = buckets.get(id) ?? { key, labels: {}, add: {}, first: iso, last: iso };
      // The bucket carries the group of its device's latest payload, as one call at a time leaves it.
      if (iso >= bucket.last || Object.keys(bucket.labels).length === 0) {
        bucket.labels = { entity: ENTITY.payloadMetrics, device_reference, scope, period, ...(group === undefined ? {} : { group }) };
      }
      bucket.add[countAttribute] = (bucket.add[countAttribute] ?? 0) + 1;
      if (iso < bucket.first) bucket.first = iso;
      if (iso > bucket.last) bucket.last = iso;
      buckets.set(id, bucket);
    }
  }
  return { buckets: [...buckets.values()], totals };
}
