import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET roles`. */
export const listRoles = endpointOf(accessEndpoints, 'admin.roles.list');
