import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { readGroup, statsAttribute, toGroup } from '#core/store/entities/group.ts';
import { readTag } from '#core/store/entities/tag.ts';
import { ENTITY, keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import type { Group, GroupRequest, TagDefinition } from '#shared/contract/entities/groups.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { listPage, readAll, type QueryOf } from '#core/store/paging.ts';
import type { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import type { AccessDependencies } from '../access-lists.ts';
import type { ReviewedGroup } from '../tags/tag-review.ts';
import { resolveGroupTags } from './group-tags.ts';

export const GROUP_HAS_USERS_MESSAGE = 'The group still has device users';

export function listGroups(caller: TenantCaller, query: QueryOf<typeof accessEndpoints, 'admin.groups.list'>) {
  const { deps: dependencies, tenant: client } = caller;
  return listPage(dependencies, { client, query: keys.group.list(client, query.starts_with), page: query, toData: (item) => toGroup(readGroup(item)) });
}

export async function getGroup(caller: TenantCaller, groupReference: string): Promise<Group> {
  const { deps: dependencies, tenant: client } = caller;
  const item = await dependencies.table.get(keys.group.item(client, groupReference));
  if (item === undefined) throw new NotFoundError('Group not found');
  return toGroup(readGroup(item));
}

/** Every group of the tenant with its tags (what a tag definition change is reviewed against). */
export async function loadGroupsForReview(dependencies: Pick<AccessDependencies, 'table'>, client: string): Promise<ReviewedGroup[]> {
  const items = await readAll(dependencies.table, { ...keys.group.list(client), consistent: true });
  return items.map((item) => {
    const group = readGroup(item);
    return { group_reference: group.group_reference, tags: group.tags };
  });
}

async function loadDefinitions(dependencies: Pick<AccessDependencies, 'table'>, client: string): Promise<TagDefinition[]> {
  return (await readAll(dependencies.table, { ...keys.tagDefinition.list(client), consistent: true })).map(readTag);
}

/**
 * Creates or replaces a group's tags (checked against the tenant's definitions, required tags filled with their
 * defaults). An UpdateItem that SETs only the group's own attributes: the stats counters, which devices and device
 * users change concurrently with atomic ADDs, are never overwritten.
 */
export async function putGroup(caller: TenantCaller, groupReference: string, request: GroupRequest): Promise<Group> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const resolved = resolveGroupTags(request.tags, await loadDefinitions(dependencies, client));
  if (!resolved.ok) throw new ValidationError(resolved.lines);
  const { pk, sk, entity } = keys.group.item(client, groupReference);
  const item = await dependencies.table.update(
    { pk, sk },
    {
      set: {
        entity,
        client,
        group_reference: groupReference,
        tags: resolved.tags,
        updated_by: actorOf(principal),
        updated_by_actor: actorRecordOf(principal),
        updated_at: dependencies.clock.now().toISOString(),
      },
    },
  );
  if (item === undefined) throw new Error('Group update returned no item');
  return toGroup(readGroup(item));
}

/** Deletes a group: unknown 404; a group that device users still belong to 409 (also when one joins meanwhile). */
export async function deleteGroup(caller: TenantCaller, groupReference: string): Promise<void> {
  const { deps: dependencies, tenant: client } = caller;
  const { pk, sk } = keys.group.item(client, groupReference);
  const item = await dependencies.table.get({ pk, sk }, { consistent: true });
  if (item === undefined || item.entity !== ENTITY.group) throw new NotFoundError('Group not found');
  if (readGroup(item).stats.device_users > 0) throw new ConflictError(GROUP_HAS_USERS_MESSAGE);
  try {
    await dependencies.table.delete(
      { pk, sk },
      {
        condition: {
          kind: 'expression',
          expression: 'attribute_exists(#cpk) AND (attribute_not_exists(#cusers) OR #cusers <= :czero)',
          names: { '#cpk': TABLE_KEYS.partitionKey, '#cusers': statsAttribute('device_users') },
          values: { ':czero': 0 },
        },
      },
    );
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(GROUP_HAS_USERS_MESSAGE);
    throw error;
  }
}
