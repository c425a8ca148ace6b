import { useEndpointQuery } from '../../lib/api-hooks.ts';
import { listGroupsForPicker } from './api/list-groups.ts';

/** Group references for the form's picker and the list filter (the first 100 groups, the page maximum). */
export function useGroupOptions(): { options: string[]; isLoading: boolean } {
  const query = useEndpointQuery(listGroupsForPicker, { query: { limit: '100' } }, { staleTime: 60_000 });
  const options = query.data !== undefined && 'data' in query.data ? query.data.data.map((group) => group.group_reference) : [];
  return { options, isLoading: query.isLoading };
}
