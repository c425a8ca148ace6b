import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getTag } from './get-tag.ts';
import { listGroups } from './list-groups.ts';
import { listTags } from './list-tags.ts';

/** `PUT tags/{tag_key}`. */
export const putTag = endpointOf(accessEndpoints, 'admin.tags.put');

/** Saving a tag (with force, also the groups it changes) changes the tags and the groups; refused input shows under its fields. */
export function usePutTag() {
  return useEndpointMutation(putTag, { invalidates: [listTags, getTag, listGroups], formErrors: true });
}
