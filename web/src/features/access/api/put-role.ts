import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `PUT roles/{role_reference}`. */
export const putRole = endpointOf(accessEndpoints, 'admin.roles.put');
