import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import { getMetrics } from '../api/get-metrics.ts';
import { typeTotals } from './overview-model.ts';

/** Rows per metrics page: the most the contract allows (a larger page is refused with a 400). */
const PAGE = String(PAGE_SIZE_MAX);

/**
 * The recordings of each type in the overview's days, from the SAME counters as the device metrics screen
 * (`GET metrics/Daily` over the range, every page, summed across devices): the overview and the metrics cannot
 * disagree, whatever the period (docs/decisions.md "Licence use and counts").
 */
export function useRecordedCounts(range: { from: string; to: string }) {
  const { session, state } = useSession();
  const input = { params: { scope: 'Daily' as const }, query: { ...range, limit: PAGE } };
  return useQuery({
    queryKey: [...sessionQueryKey(getMetrics, { client: state.client, supportReference: state.supportReference }, input), 'all-pages'],
    queryFn: async ({ signal }) => {
      const rows: DevicePayloadMetrics[] = [];
      let cursor: string | undefined;
      do {
        const page = await session.call(getMetrics, { ...input, query: { ...input.query, ...(cursor === undefined ? {} : { last_key: cursor }) } }, signal);
        if (!('data' in page)) break;
        rows.push(...page.data);
        cursor = page.last_key;
      } while (cursor !== undefined);
      return typeTotals(rows);
    },
  });
}
