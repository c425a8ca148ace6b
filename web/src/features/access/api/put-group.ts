import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `PUT groups/{group_reference}`. */
export const putGroup = endpointOf(accessEndpoints, 'admin.groups.put');
