import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getGroup } from './get-group.ts';
import { listGroups } from './list-groups.ts';

/** `PUT groups/{group_reference}`. */
export const putGroup = endpointOf(accessEndpoints, 'admin.groups.put');

/** Saving changes the group list and the group; refused input shows under its fields. */
export function usePutGroup() {
  return useEndpointMutation(putGroup, { invalidates: [listGroups, getGroup], formErrors: true });
}
