import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET groups`: the groups with their tags. */
export const listGroups = endpointOf(accessEndpoints, 'admin.groups.list');

type GroupListQuery = NonNullable<CallInput<typeof listGroups>['query']>;

export function useGroups(query: GroupListQuery) {
  return useCursorList(listGroups, { query });
}
