import type * as z from 'zod';
import { Role } from '#shared/contract/entities/roles.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

export const roleKeys = {
  item: (client: string, roleReference: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}ROLES`,
    sk: `ROLE#${part(roleReference)}`,
    entity: ENTITY.role,
  }),
  /** The tenant's roles, or those whose reference starts with `startsWith`. */
  list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}ROLES`, 'ROLE#', startsWith),
};

/**
 * A tenant's role (`keys.role`). Decision: stored exactly as the contract shows it, so the item schema is the
 * contract's `Role` (its defaults fill attributes that roles written before them lack: `cidr_ranges`, `is_alertable`,
 * `is_system`).
 */
export const roleItemSchema = /* @__PURE__ */ onFirstUse(() => Role);
export type RoleItem = z.infer<ReturnType<typeof roleItemSchema>>;

export function readRole(item: TableItem): RoleItem {
  return readItem('Role', roleItemSchema(), item);
}

/** The role's item: its attributes under the role's keys. */
export function roleToItem(client: string, role: RoleItem): TableItem {
  return { ...roleKeys.item(client, role.role_reference), ...role };
}

/** The role as the API answers it. */
export function toRole(stored: RoleItem): Role {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const roleModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.role,
  title: 'Role',
  module: 'role.ts',
  indexes: {},
  items: [{ example: () => roleKeys.item(EXAMPLE_CLIENT, '<role_reference>') }],
  accessPatterns: [
    { name: 'Get one', serves: '`roles/{role_reference}`', builders: ['keys.role.item'], example: () => roleKeys.item(EXAMPLE_CLIENT, '<role_reference>') },
    { name: 'List the tenant\'s (`starts_with`: a prefix of the sort key)', serves: '`GET roles`', builders: ['keys.role.list'], example: () => roleKeys.list(EXAMPLE_CLIENT, '<prefix>') },
  ],
}));
