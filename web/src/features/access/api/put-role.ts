import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getRole } from './get-role.ts';
import { listRoles } from './list-roles.ts';

/** `PUT roles/{role_reference}`. */
export const putRole = endpointOf(accessEndpoints, 'admin.roles.put');

/** Saving changes the role list and the role; refused input shows under its fields. */
export function usePutRole() {
  return useEndpointMutation(putRole, { invalidates: [listRoles, getRole], formErrors: true });
}
