import type { MetricScope } from '#shared/constants/devices.ts';
import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';
import { readPayloadMetrics, toDevicePayloadMetrics } from '../core/store/entities/payload-metrics.ts';
import type { TenantCaller } from '../core/http/caller.ts';
import type { TableItem } from '../core/ports/table-store.ts';
import type { Page } from '../core/store/cursor.ts';
import { inScope, listPage, type QueryOf } from '../core/store/paging.ts';
import type { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { keys, part } from '../core/store/keys.ts';
import { isoOf, timeRange } from '../core/store/time-range.ts';
import { periodOf } from './periods.ts';

export type MetricsQuery = QueryOf<typeof deviceEndpoints, 'admin.metrics.get'>;

/** The contract's DevicePayloadMetrics from a bucket item (counts from the flat `n_<type>` attributes). */
export function toPayloadMetrics(item: TableItem): DevicePayloadMetrics {
  return toDevicePayloadMetrics(readPayloadMetrics(item));
}

/**
 * The sort-key range of the periods a date range touches: from the period holding `from` to the one holding `to`
 * (`#` ends a period in the key and `$` is the next character, so the upper bound takes every device of the last
 * period). Summary has one period (`all`): a date range does not narrow it. Undefined: the whole partition.
 */
export function periodRange(scope: MetricScope, from: string | undefined, to: string | undefined): [string, string] | undefined {
  if (scope === 'Summary' || (from === undefined && to === undefined)) return undefined;
  const lower = from === undefined ? '0' : `${part(periodOf(scope, new Date(isoOf(from, 'start'))))}#`;
  const upper = to === undefined ? '~' : `${part(periodOf(scope, new Date(isoOf(to, 'end'))))}$`;
  return [lower, upper];
}

/**
 * `GET metrics/{scope}`: per-device payload counts by period, from the counters `recordPayloadMetric` keeps. One
 * Query on the scope's partition, the date range as a key condition on the period; periods in time order, devices
 * by reference within a period. `device_reference` and the caller's group scope (a bucket carries the group of its
 * device's latest payload) filter the items read (a page may hold fewer than `limit`).
 */
export async function listPayloadMetrics(caller: TenantCaller, scope: MetricScope, query: MetricsQuery): Promise<Page<DevicePayloadMetrics> | { count: number }> {
  const { deps, tenant: client } = caller;
  timeRange(query.from, query.to); // a `from` after `to` is a 400, as on every dated list
  const list = keys.metrics.list(client, scope);
  const range = periodRange(scope, query.from, query.to);
  const base = { partition: list.partition, ...(range === undefined ? {} : { sort: { between: range } }) };
  const keep = query.device_reference === undefined ? undefined : (item: TableItem) => readPayloadMetrics(item).device_reference === query.device_reference;
  return listPage(deps, {
    client,
    query: base,
    filters: { from: range?.[0], to: range?.[1], device_reference: query.device_reference },
    page: query,
    keep: inScope(caller.groupScope(), keep),
    toData: toPayloadMetrics,
  });
}
