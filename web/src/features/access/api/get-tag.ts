import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET tags/{tag_key}`. */
export const getTag = endpointOf(accessEndpoints, 'admin.tags.get');
