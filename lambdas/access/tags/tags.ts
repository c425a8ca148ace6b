import type { TenantCaller } from '#core/http/caller.ts';
import { HttpError, NotFoundError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { readTag, tagToItem, toTagDefinition, type TagItem } from '#core/store/entities/tag.ts';
import { keys } from '#core/store/keys.ts';
import type { TagDefinition, TagDefinitionRequest } from '#shared/contract/entities/groups.ts';
import { loadGroupsForReview } from '../groups/groups.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { conflictLines, groupsUsingTag, reviewDefinition } from './tag-review.ts';

/** 409 listing the groups a tag definition change (or delete) conflicts with, one `groups.<ref>: why` line each. */
export class GroupReviewConflictError extends HttpError {
  override readonly name = 'GroupReviewConflictError';
  constructor(lines: readonly string[]) {
    super(409, lines);
  }
}

export function listTags(caller: TenantCaller, query: QueryOf<typeof accessEndpoints, 'admin.tags.list'>) {
  const { deps: dependencies, tenant: client } = caller;
  return listPage(dependencies, { client, query: keys.tagDefinition.list(client, query.starts_with), page: query, toData: (item) => toTagDefinition(readTag(item)) });
}

export async function getTag(caller: TenantCaller, tagKey: string): Promise<TagDefinition> {
  const { deps: dependencies, tenant: client } = caller;
  const item = await dependencies.table.get(keys.tagDefinition.item(client, tagKey));
  if (item === undefined) throw new NotFoundError('Tag not found');
  return toTagDefinition(readTag(item));
}

/**
 * Creates or replaces a tag definition after reviewing every group of the tenant against it: groups the change would
 * make invalid answer 409 listing them, unless `force_update`, which applies the definition and leaves the groups
 * as they are (their next PUT must then satisfy it).
 */
export async function putTag(caller: TenantCaller, tagKey: string, request: TagDefinitionRequest): Promise<TagDefinition> {
  const { deps: dependencies, tenant: client, principal } = caller;
  if (!request.force_update) {
    const conflicts = reviewDefinition(tagKey, request, await loadGroupsForReview(dependencies, client));
    if (conflicts.length > 0) throw new GroupReviewConflictError(conflictLines(conflicts));
  }
  const definition: TagItem = {
    client,
    tag_key: tagKey,
    tag_values: request.tag_values,
    is_required: request.is_required,
    default_value: request.default_value ?? null,
    ...(request.description === undefined ? {} : { description: request.description }),
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  };
  await dependencies.table.put(tagToItem(client, definition));
  return toTagDefinition(definition);
}

/**
 * Deletes a tag definition. Groups carrying the tag answer 409 listing them, unless `force`: then the tag is also
 * removed from those groups, so no group keeps a value that no definition explains (its next PUT would fail).
 */
export async function deleteTag(caller: TenantCaller, tagKey: string, force: boolean): Promise<void> {
  const { deps: dependencies, tenant: client } = caller;
  const key = keys.tagDefinition.item(client, tagKey);
  if ((await dependencies.table.get(key, { consistent: true })) === undefined) throw new NotFoundError('Tag not found');
  const groups = await loadGroupsForReview(dependencies, client);
  const users = groupsUsingTag(tagKey, groups);
  if (users.length > 0 && !force) throw new GroupReviewConflictError(conflictLines(users));
  for (const user of users) {
    const group = groups.find((candidate) => candidate.group_reference === user.group_reference);
    if (group === undefined) continue;
    const { pk, sk } = keys.group.item(client, group.group_reference);
    try {
      await dependencies.table.update(
        { pk, sk },
        { set: { tags: group.tags.filter((tag) => tag.tag_key !== tagKey) } },
        { condition: { kind: 'item-exists' } },
      );
    } catch (error) {
      // Deleted meanwhile: nothing left to clean.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  await dependencies.table.delete({ pk: key.pk, sk: key.sk });
}
