import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** The group picker of the form and the group filter. */
export const listGroupsForPicker = endpointOf(accessEndpoints, 'admin.groups.list');

/** Group references for the form's picker and the list filter (the first 100 groups, the page maximum). */
export function useGroupOptions(): { options: string[]; isLoading: boolean } {
  const query = useEndpointQuery(listGroupsForPicker, { query: { limit: '100' } }, { staleTime: 60_000 });
  const options = query.data !== undefined && 'data' in query.data ? query.data.data.map((group) => group.group_reference) : [];
  return { options, isLoading: query.isLoading };
}
