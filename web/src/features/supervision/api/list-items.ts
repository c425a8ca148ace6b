import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCursorList, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET supervision/items`: the review queue, page by page, or its total (`result_type=total`). */
export const listSupervisionItems = endpointOf(supervisionEndpoints, 'admin.supervision.items.list');

/** The queue's filters as the API reads them. */
export type SupervisionItemsQuery = NonNullable<Parameters<typeof useCursorList<typeof listSupervisionItems>>[1]['query']>;
/** The same filters without the paging fields: what a total counts. */
export type SupervisionItemsFilter = Omit<SupervisionItemsQuery, 'result_type' | 'last_key' | 'limit'>;

/** The queue's rows, loaded page by page with the cursor. */
export function useSupervisionItems(query: SupervisionItemsFilter, options: { enabled?: boolean } = {}) {
  return useCursorList(listSupervisionItems, { query }, options);
}

/** How many items the same filters hold in all (not only the pages loaded). */
export function useSupervisionItemTotal(query: SupervisionItemsFilter, options: { enabled?: boolean } = {}) {
  const answer = useEndpointQuery(listSupervisionItems, { query: { ...query, result_type: 'total' } }, options);
  return { ...answer, total: answer.data === undefined ? undefined : answer.data.count };
}
