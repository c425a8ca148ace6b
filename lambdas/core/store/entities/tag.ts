import * as z from 'zod';
import { TagDefinition } from '#shared/contract/entities/groups.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

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
  return { ...keys.tagDefinition.item(client, tag.tag_key), ...tag };
}

/** The definition as the API answers it (the description included, as it always was). */
export function toTagDefinition(stored: TagItem): TagDefinition {
  return stored;
}
