import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import { useEndpointQuery } from '../../lib/api-hooks.ts';
import { listTags } from './api/list-tags.ts';

/** The tenant's tag definitions for the group tag editor (the first 100, the page maximum). */
export function useTagDefinitions(): { definitions: TagDefinition[] | undefined; isLoading: boolean } {
  const query = useEndpointQuery(listTags, { query: { limit: '100' } }, { staleTime: 30_000 });
  const definitions = query.data !== undefined && 'data' in query.data ? query.data.data : undefined;
  return { definitions, isLoading: query.isLoading };
}
