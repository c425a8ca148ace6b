import type { TableItem } from '../ports/table-store.ts';
import { TABLE_KEYS } from './table-definition.ts';

/** The attributes the table itself uses: primary key, index keys and the entity tag. Never part of an API answer. */
const KEY_ATTRIBUTES = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  TABLE_KEYS.entityAttribute,
  ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
]);

/** The entity's own attributes: the item without its key, index and entity-tag attributes. */
export function withoutKeys(item: TableItem): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !KEY_ATTRIBUTES.has(name)));
}
