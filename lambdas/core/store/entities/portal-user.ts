import * as z from 'zod';
import type { Staff } from '#shared/contract/entities/licences.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, type EntityModel } from '../entity-model.ts';

export const portalUserKeys = {
  item: (client: string, userReference: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}PORTAL_USERS`,
    sk: `USER#${part(userReference)}`,
    entity: ENTITY.portalUser,
  }),
  list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}PORTAL_USERS`),
};

/** Text that reads as absent when it is not text. */
const text = z.string().optional().catch(undefined);

/**
 * A portal user (`keys.portalUser`): a tenant user's or, in the provider's own client `admin`, a staff member's
 * stored facts (the staff list, the profile and the alert recipients read them). Decision: portal users are written
 * by the provisioning command, not by an endpoint, so a read is tolerant: an attribute of the wrong type reads as
 * absent (a role that is not text is left out) rather than failing every list and profile that meets it.
 */
export const PortalUserItem = z.object({
  client: text,
  user_reference: z.string().catch(''),
  email: text,
  first_name: text,
  surname: text,
  roles: z
    .array(z.unknown())
    .catch([])
    .transform((roles) => roles.filter((role): role is string => typeof role === 'string')),
  user_group: text,
  portal_config: z.record(z.string(), z.unknown()).optional().catch(undefined),
  last_seen: text,
  created_at: text,
  updated_at: text,
  updated_by: text,
});
export type PortalUserItem = z.infer<typeof PortalUserItem>;

export function readPortalUser(item: TableItem): PortalUserItem {
  return readItem('PortalUser', PortalUserItem, item);
}

/** A staff member (a portal user of `admin`) as the internal console's staff list shows them. */
export function toStaff(stored: PortalUserItem): Staff {
  return {
    user_reference: stored.user_reference,
    ...(stored.email === undefined ? {} : { email: stored.email }),
    roles: stored.roles,
    ...(stored.last_seen === undefined ? {} : { last_seen: stored.last_seen }),
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const portalUserModel: EntityModel = {
  entity: ENTITY.portalUser,
  title: 'Portal user profile',
  module: 'portal-user.ts',
  indexes: {},
  items: [{ example: () => portalUserKeys.item(EXAMPLE_CLIENT, '<user_reference>') }],
  accessPatterns: [
    { name: 'Get a portal user profile', serves: '`GET profile`', builders: ['keys.portalUser.item'], example: () => portalUserKeys.item(EXAMPLE_CLIENT, '<user_reference>') },
    { name: 'List portal users of a tenant', serves: '(staff)', builders: ['keys.portalUser.list'], example: () => portalUserKeys.list(EXAMPLE_CLIENT) },
  ],
};
