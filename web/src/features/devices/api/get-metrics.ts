import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET metrics/{scope}`. */
export const getMetrics = endpointOf(deviceEndpoints, 'admin.metrics.get');

type MetricsQuery = NonNullable<CallInput<typeof getMetrics>['query']>;

/** Metric rows of one scope, page by page. */
export function useMetrics(scope: CallInput<typeof getMetrics>['params']['scope'], query: MetricsQuery, enabled: boolean) {
  return useCursorList(getMetrics, { params: { scope }, query }, { enabled });
}
