import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET roles`. */
export const listRoles = endpointOf(accessEndpoints, 'admin.roles.list');

type RoleListQuery = NonNullable<CallInput<typeof listRoles>['query']>;

export function useRoles(query: RoleListQuery) {
  return useCursorList(listRoles, { query });
}
