import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `DELETE groups/{group_reference}`. */
export const deleteGroup = endpointOf(accessEndpoints, 'admin.groups.delete');
