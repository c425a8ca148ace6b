import * as z from 'zod';
import { Instant } from './instant.ts';
import { PayloadType } from '#shared/constants/payloads.ts';
import { DeviceReference } from '#shared/contract/fields.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { ConditionFailedError, type ItemKey, type TableItem } from '../core/ports/table-store.ts';
import { ENTITY, keys } from '../core/store/keys.ts';
import { ALL_SCOPES, periodOf } from './periods.ts';

/** Count attributes are flat (`n_<payload type>`): ADD creates a missing number, but not a path under a missing map. */
import { PAYLOAD_COUNT_PREFIX as COUNT_PREFIX } from '../core/store/entities/payload-metrics.ts';

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
 * One bucket: ADD the count, and move last_occurrence forward in the same update when the payload is the latest
 * (the usual case: one write). An older payload arriving late fails that condition and adds without it. Then
 * first_occurrence moves back only if this payload is earlier (a conditional SET; losing a race to an even earlier
 * one is fine). Every step is atomic on its own, so concurrent calls never lose a count.
 */
async function recordInBucket(deps: Deps, key: ItemKey, labels: Record<string, unknown>, countAttribute: string, time: string): Promise<void> {
  let item: TableItem | undefined;
  try {
    item = await deps.table.update(
      key,
      { set: { ...labels, last_occurrence: time }, add: { [countAttribute]: 1 } },
      { condition: { kind: 'expression', expression: 'attribute_not_exists(#lo) OR #lo <= :t', names: { '#lo': 'last_occurrence' }, values: { ':t': time } } },
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    item = await deps.table.update(key, { set: labels, add: { [countAttribute]: 1 } });
  }
  const first = item?.first_occurrence;
  if (typeof first === 'string' && first <= time) return;
  try {
    await deps.table.update(
      key,
      { set: { first_occurrence: time } },
      { condition: { kind: 'expression', expression: 'attribute_not_exists(#fo) OR #fo > :t', names: { '#fo': 'first_occurrence' }, values: { ':t': time } } },
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
      return recordInBucket(
        deps,
        keys.metrics.item(client, scope, period, device_reference),
        { entity: ENTITY.payloadMetrics, device_reference, scope, period, ...(group === undefined ? {} : { group }) },
        countAttribute,
        iso,
      );
    }),
    deps.table.update(keys.metrics.totals(client), { set: { entity: ENTITY.metricTotals }, add: { payloads: 1, [countAttribute]: 1 } }),
  ]);
}
