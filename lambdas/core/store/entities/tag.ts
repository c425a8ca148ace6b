import * as z from 'zod';
import { TagDefinition } from '#shared/contract/entities/groups.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

export const tagDefinitionKeys = {
  item: (client: string, tagKey: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}TAGS`,
    sk: `TAG#${part(tagKey)}`,
    entity: ENTITY.tagDefinition,
  }),
  /** The tenant's tag definitions, or those whose reference starts with `startsWith`. */
  list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}TAGS`, 'TAG#', startsWith),
};

/**
 * A tenant's tag definition (`keys.tagDefinition`): the contract's `TagDefinition` and its optional description,
 * which the request carries and the store keeps.
 */
export const tagItemSchema = /* @__PURE__ */ onFirstUse(() => TagDefinition.extend({ description: z.string().optional() }));
export type TagItem = z.infer<ReturnType<typeof tagItemSchema>>;

export function readTag(item: TableItem): TagItem {
  return readItem('TagDefinition', tagItemSchema(), item);
}

/** The definition's item: its attributes under the tag's keys. */
export function tagToItem(client: string, tag: TagItem): TableItem {
  return { ...tagDefinitionKeys.item(client, tag.tag_key), ...tag };
}

/** The definition as the API answers it (the description included, as it always was). */
export function toTagDefinition(stored: TagItem): TagDefinition {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const tagDefinitionModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.tagDefinition,
  title: 'Tag definition',
  module: 'tag.ts',
  indexes: {},
  items: [{ example: () => tagDefinitionKeys.item(EXAMPLE_CLIENT, '<tag_key>') }],
  accessPatterns: [
    { name: 'Get one', serves: '`tags/{tag_key}`', builders: ['keys.tagDefinition.item'], example: () => tagDefinitionKeys.item(EXAMPLE_CLIENT, '<tag_key>') },
    { name: 'List the tenant\'s (`starts_with`: a prefix of the sort key)', serves: '`GET tags`', builders: ['keys.tagDefinition.list'], example: () => tagDefinitionKeys.list(EXAMPLE_CLIENT, '<prefix>') },
  ],
}));
