import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `DELETE roles/{role_reference}`. */
export const deleteRole = endpointOf(accessEndpoints, 'admin.roles.delete');
