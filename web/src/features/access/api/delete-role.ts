import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listRoles } from './list-roles.ts';

/** `DELETE roles/{role_reference}`. */
export const deleteRole = endpointOf(accessEndpoints, 'admin.roles.delete');

/** Deleting changes the role list. */
export function useDeleteRole() {
  return useEndpointMutation(deleteRole, { invalidates: [listRoles] });
}
