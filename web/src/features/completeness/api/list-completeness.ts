import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CompletenessRow } from '#shared/contract/entities/completeness.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET completeness`: per day for the tenant, each group, device user or device, newest day first. */
export const listCompleteness = endpointOf(completenessEndpoints, 'client.completeness.list');

/** A report's filters as the API reads them (wire text), without the paging fields this hook sets. */
export type CompletenessListQuery = Omit<NonNullable<CallInput<typeof listCompleteness>['query']>, 'limit' | 'last_key' | 'result_type'>;

/** Pages read for one report at most (100 rows each): a chart of more rows than this says it is partial. */
export const ROW_PAGES_MAX = 20;

/**
 * Every row of a report over the period, page by page with the cursor (a chart needs all its days, not a first page),
 * up to ROW_PAGES_MAX pages; `partial` says more were left unread.
 */
export function useCompletenessRows(query: CompletenessListQuery, options: { enabled?: boolean } = {}) {
  const { session, state } = useSession();
  const input = { query: { ...query, limit: String(PAGE_SIZE_MAX) } };
  return useQuery({
    queryKey: [...sessionQueryKey(listCompleteness, { client: state.client, supportReference: state.supportReference }, input), 'all-pages'],
    enabled: options.enabled,
    queryFn: async ({ signal }) => {
      const rows: CompletenessRow[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await session.call(listCompleteness, { query: { ...input.query, ...(cursor === undefined ? {} : { last_key: cursor }) } }, signal);
        if (!('data' in page)) break;
        rows.push(...page.data);
        pages += 1;
        // A cursor that does not move would loop for ever: stop rather than ask again.
        cursor = page.last_key !== undefined && page.last_key !== cursor ? page.last_key : undefined;
      } while (cursor !== undefined && pages < ROW_PAGES_MAX);
      return { rows, partial: cursor !== undefined };
    },
  });
}
