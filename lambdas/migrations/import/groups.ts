import { ConditionFailedError } from '../../core/ports/table-store.ts';
import { readTag } from '../../core/store/entities/tag.ts';
import { keys } from '../../core/store/keys.ts';
import { readAll } from '../../core/store/paging.ts';
import { resolveGroupTags } from '../../access/public.ts';
import type { GroupRow } from '../format/index.ts';
import { results, type ImportContext } from './context.ts';
import type { RowResult } from './results.ts';

/**
 * A group row: added when new (with the tenant's required tags at their defaults, as an empty group PUT would get),
 * left as it is when it exists. The put is conditional on absence, so a group made meanwhile is never overwritten.
 */
export async function importGroup(context: ImportContext, row: GroupRow): Promise<RowResult> {
  const { deps, client } = context;
  const reference = row.group_reference;
  const key = keys.group.item(client, reference);
  if ((await deps.table.get({ pk: key.pk, sk: key.sk }, { consistent: true })) !== undefined) {
    return results.success(context, { entity: 'Group', type: 'NoChangeToGroup', reference }, false);
  }
  const definitions = (await readAll(deps.table, { ...keys.tagDefinition.list(client), consistent: true })).map(readTag);
  const tags = resolveGroupTags([], definitions);
  if (!tags.ok) return results.error(context, { entity: 'Group', type: 'Error', reference }, tags.lines.join('; '));
  try {
    await deps.table.put(
      { ...key, client, group_reference: reference, tags: tags.tags, updated_by: context.actor, updated_at: context.now },
      { condition: { kind: 'item-not-exists' } },
    );
  } catch (error) {
    if (error instanceof ConditionFailedError) return results.success(context, { entity: 'Group', type: 'NoChangeToGroup', reference }, false);
    throw error;
  }
  return results.success(context, { entity: 'Group', type: 'GroupAdded', reference }, true);
}
