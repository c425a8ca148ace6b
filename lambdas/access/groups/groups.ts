import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '#core/ports/table-store.ts';
import { GROUP_COUNTERS, SERVICE_COUNTERS, readGroup, statsAttribute, toGroup } from '#core/store/entities/group.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { SERVICES } from '#shared/constants/devices.ts';
import { versionWrites } from '../../audit/public.ts';
import { readTag } from '#core/store/entities/tag.ts';
import { ENTITY, keys } from '#core/store/keys.ts';
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

export const GROUP_CHANGED_MESSAGE = 'The group changed meanwhile; try again';

/** Every stats counter a group item may carry: an ADD can create any of them under a write that read it absent. */
const GROUP_COUNTER_ATTRIBUTES = [
  ...GROUP_COUNTERS.map((counter) => statsAttribute(counter)),
  ...SERVICES.flatMap((service) => SERVICE_COUNTERS.map((counter) => statsAttribute(counter, service))),
];
const GROUP_OWN_ATTRIBUTES = ['entity', 'client', 'group_reference', 'tags', 'updated_by', 'updated_by_actor', 'updated_at'];

/**
 * Tries of a group write. Devices and device users move a group's stats counters with atomic ADDs at any time; a
 * change of the group itself must replace the item exactly as read (its version is kept), so it reads again and
 * retries when they moved meanwhile.
 */
const GROUP_WRITE_TRIES = 3;

/**
 * One change of a group's own attributes, or its removal, with the group it replaced kept as a version in the same
 * transaction. `change` answers the attributes to SET from the stored item (undefined: nothing to write), or `delete`.
 * Answers the group as written (undefined when there was nothing to write); throws GROUP_CHANGED_MESSAGE (409) when it
 * kept changing under the write.
 */
async function changeGroup(
  caller: TenantCaller,
  groupReference: string,
  change: (stored: TableItem | undefined) => Record<string, unknown> | 'delete' | undefined,
): Promise<TableItem | undefined> {
  const { deps: dependencies, tenant: client } = caller;
  const { pk, sk, entity } = keys.group.item(client, groupReference);
  for (let attempt = 1; ; attempt += 1) {
    const stored = await dependencies.table.get({ pk, sk }, { consistent: true });
    const wanted = change(stored);
    if (wanted === undefined) return undefined;
    const condition = stored === undefined ? ({ kind: 'item-not-exists' } as const) : unchangedItem(stored, [...GROUP_COUNTER_ATTRIBUTES, ...GROUP_OWN_ATTRIBUTES]);
    const write: TransactOperation = wanted === 'delete' ? { kind: 'delete', key: { pk, sk }, condition } : { kind: 'update', key: { pk, sk }, update: { set: wanted }, condition };
    try {
      await dependencies.table.transactWrite([
        write,
        ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'group', reference: groupReference, stored, change: wanted === 'delete' ? 'deleted' : 'updated' }])),
      ]);
      return wanted === 'delete' ? undefined : { entity, ...stored, ...wanted, pk, sk };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (attempt >= GROUP_WRITE_TRIES) throw new ConflictError(GROUP_CHANGED_MESSAGE);
    }
  }
}

/**
 * Creates or replaces a group's tags (checked against the tenant's definitions, required tags filled with their
 * defaults). It SETs only the group's own attributes: the stats counters, which devices and device users change
 * concurrently with atomic ADDs, are never overwritten. The group it replaced is kept as a version (changeGroup).
 */
export async function putGroup(caller: TenantCaller, groupReference: string, request: GroupRequest): Promise<Group> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const resolved = resolveGroupTags(request.tags, await loadDefinitions(dependencies, client));
  if (!resolved.ok) throw new ValidationError(resolved.lines);
  const { entity } = keys.group.item(client, groupReference);
  const item = await changeGroup(caller, groupReference, () => ({
    entity,
    client,
    group_reference: groupReference,
    tags: resolved.tags,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  }));
  if (item === undefined) throw new Error('Group update returned no item');
  return toGroup(readGroup(item));
}

/**
 * Removes one tag from a group whose tag definition is deleted (tags.ts, `force`), keeping the group it replaced as a
 * version. A group deleted meanwhile, or no longer carrying the tag, is left as it is.
 */
export async function removeGroupTag(caller: TenantCaller, groupReference: string, tagKey: string): Promise<void> {
  await changeGroup(caller, groupReference, (stored) => {
    if (stored === undefined) return undefined;
    const { tags } = readGroup(stored);
    return tags.some((tag) => tag.tag_key === tagKey) ? { tags: tags.filter((tag) => tag.tag_key !== tagKey) } : undefined;
  });
}

/**
 * Deletes a group: unknown 404; a group that device users still belong to 409 (also when one joins meanwhile: the
 * delete holds only while the item, its counters included, is as read). The group as it was is kept as a version.
 */
export async function deleteGroup(caller: TenantCaller, groupReference: string): Promise<void> {
  await changeGroup(caller, groupReference, (item) => {
    if (item === undefined || item.entity !== ENTITY.group) throw new NotFoundError('Group not found');
    if (readGroup(item).stats.device_users > 0) throw new ConflictError(GROUP_HAS_USERS_MESSAGE);
    return 'delete';
  });
}
