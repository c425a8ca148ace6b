import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET tags`. */
export const listTags = endpointOf(accessEndpoints, 'admin.tags.list');
