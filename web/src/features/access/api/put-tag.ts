import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `PUT tags/{tag_key}`. */
export const putTag = endpointOf(accessEndpoints, 'admin.tags.put');
