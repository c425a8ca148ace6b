import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, HttpError, NotFoundError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '#core/ports/table-store.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { versionWrites } from '../../audit/public.ts';
import { readTag, tagToItem, toTagDefinition, type TagItem } from '#core/store/entities/tag.ts';
import { keys } from '#core/store/keys.ts';
import type { TagDefinition, TagDefinitionRequest } from '#shared/contract/entities/groups.ts';
import { loadGroupsForReview, removeGroupTag } from '../groups/groups.ts';
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
  const stored = await dependencies.table.get(keys.tagDefinition.item(client, tagKey), { consistent: true });
  await writeDefinition(caller, tagKey, stored, { kind: 'put', item: tagToItem(client, definition) });
  return toTagDefinition(definition);
}

export const TAG_CHANGED_MESSAGE = 'The tag definition changed meanwhile; read it again';

/** Attributes a definition may gain that the item read lacked. */
const TAG_ATTRIBUTES = ['tag_values', 'is_required', 'default_value', 'description', 'updated_by', 'updated_by_actor', 'updated_at'];

/**
 * Writes (or deletes) a definition while it is exactly as read (absent: still absent), keeping the definition it
 * replaced as a version in the same transaction; a change meanwhile answers 409.
 */
async function writeDefinition(caller: TenantCaller, tagKey: string, stored: TableItem | undefined, write: Extract<TransactOperation, { kind: 'put' | 'delete' }>) {
  const condition = stored === undefined ? ({ kind: 'item-not-exists' } as const) : unchangedItem(stored, TAG_ATTRIBUTES);
  try {
    await caller.deps.table.transactWrite([
      { ...write, condition },
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'tag-definition', reference: tagKey, stored, change: write.kind === 'delete' ? 'deleted' : 'updated' }])),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(TAG_CHANGED_MESSAGE);
    throw error;
  }
}

/**
 * Deletes a tag definition. Groups carrying the tag answer 409 listing them, unless `force`: then the tag is also
 * removed from those groups, so no group keeps a value that no definition explains (its next PUT would fail).
 */
export async function deleteTag(caller: TenantCaller, tagKey: string, force: boolean): Promise<void> {
  const { deps: dependencies, tenant: client } = caller;
  const key = keys.tagDefinition.item(client, tagKey);
  const stored = await dependencies.table.get(key, { consistent: true });
  if (stored === undefined) throw new NotFoundError('Tag not found');
  const groups = await loadGroupsForReview(dependencies, client);
  const users = groupsUsingTag(tagKey, groups);
  if (users.length > 0 && !force) throw new GroupReviewConflictError(conflictLines(users));
  // Each group's change keeps the group it replaced as a version (a group deleted meanwhile has nothing to clean).
  for (const user of users) await removeGroupTag(caller, user.group_reference, tagKey);
  await writeDefinition(caller, tagKey, stored, { kind: 'delete', key: { pk: key.pk, sk: key.sk } });
}
