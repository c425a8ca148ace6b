import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getTag } from './get-tag.ts';
import { listGroups } from './list-groups.ts';
import { listTags } from './list-tags.ts';

/** `DELETE tags/{tag_key}`. */
export const deleteTag = endpointOf(accessEndpoints, 'admin.tags.delete');

/** Deleting a tag (with force, also from the groups that carry it) changes the tags and the groups. */
export function useDeleteTag() {
  return useEndpointMutation(deleteTag, { invalidates: [listTags, getTag, listGroups] });
}
