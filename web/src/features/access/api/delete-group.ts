import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getGroup } from './get-group.ts';
import { listGroups } from './list-groups.ts';

/** `DELETE groups/{group_reference}`. */
export const deleteGroup = endpointOf(accessEndpoints, 'admin.groups.delete');

/** Deleting changes the group list and the group. */
export function useDeleteGroup() {
  return useEndpointMutation(deleteGroup, { invalidates: [listGroups, getGroup] });
}
