import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `DELETE tags/{tag_key}`. */
export const deleteTag = endpointOf(accessEndpoints, 'admin.tags.delete');
