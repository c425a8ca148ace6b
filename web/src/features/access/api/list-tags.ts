import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET tags`. */
export const listTags = endpointOf(accessEndpoints, 'admin.tags.list');

type TagListQuery = NonNullable<CallInput<typeof listTags>['query']>;

export function useTags(query: TagListQuery) {
  return useCursorList(listTags, { query });
}

/** The tenant's tag definitions for the group tag editor (the first 100, the page maximum). */
export function useTagDefinitions(): { definitions: TagDefinition[] | undefined; isLoading: boolean } {
  const query = useEndpointQuery(listTags, { query: { limit: '100' } }, { staleTime: 30_000 });
  const definitions = query.data !== undefined && 'data' in query.data ? query.data.data : undefined;
  return { definitions, isLoading: query.isLoading };
}
