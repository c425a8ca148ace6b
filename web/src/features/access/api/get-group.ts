import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET groups/{group_reference}`. */
export const getGroup = endpointOf(accessEndpoints, 'admin.groups.get');
