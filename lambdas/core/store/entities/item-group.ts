import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { readItem } from './read-item.ts';

/**
 * The group an item is placed in, as group scope reads it of every item it narrows (core/auth/access/group-scope.ts):
 * devices, device users, their data, payloads and comments each store their group's name as `group`, absent when they
 * have none. Only that attribute is read; the rest is the entity's own.
 */
export const itemGroupSchema = /* @__PURE__ */ onFirstUse(() => z.object({ group: z.string().optional() }));
export type ItemGroup = z.infer<ReturnType<typeof itemGroupSchema>>;

export function readItemGroup(item: Partial<TableItem>): ItemGroup {
  return readItem(item.entity ?? 'Grouped', itemGroupSchema(), item);
}
