import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET roles/{role_reference}`. */
export const getRole = endpointOf(accessEndpoints, 'admin.roles.get');
