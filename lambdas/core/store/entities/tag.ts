import * as z from 'zod';
import { TagDefinition } from '#shared/contract/entities/groups.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';

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
export const TagItem = TagDefinition.extend({ description: z.string().optional() });
export type TagItem = z.infer<typeof TagItem>;

export function readTag(item: TableItem): TagItem {
  return readItem('TagDefinition', TagItem, item);
}

/** The definition's item: its attributes under the tag's keys. */
export function tagToItem(client: string, tag: TagItem): TableItem {
  return { ...tagDefinitionKeys.item(client, tag.tag_key), ...tag };
}

/** The definition as the API answers it (the description included, as it always was). */
export function toTagDefinition(stored: TagItem): TagDefinition {
  return stored;
}
