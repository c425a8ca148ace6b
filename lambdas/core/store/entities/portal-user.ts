import * as z from 'zod';
import type { Staff } from '#shared/contract/entities/licences.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

export const portalUserKeys = {
  item: (client: string, userReference: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}PORTAL_USERS`,
    sk: `USER#${part(userReference)}`,
    entity: ENTITY.portalUser,
  }),
  list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}PORTAL_USERS`),
};

/** Text that reads as absent when it is not text. */
const storedTextSchema = /* @__PURE__ */ onFirstUse(() => z.string().optional().catch(undefined));

/**
 * A portal user (`keys.portalUser`): a tenant user's or, in the provider's own client `admin`, a staff member's
 * stored facts (the staff list, the profile and the alert recipients read them). Decision: portal users are written
 * by the provisioning command, not by an endpoint, so a read is tolerant: an attribute of the wrong type reads as
 * absent (a role that is not text is left out) rather than failing every list and profile that meets it.
 */
export const portalUserItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: storedTextSchema(),
  user_reference: z.string().catch(''),
  email: storedTextSchema(),
  first_name: storedTextSchema(),
  surname: storedTextSchema(),
  roles: z
    .array(z.unknown())
    .catch([])
    .transform((roles) => roles.filter((role): role is string => typeof role === 'string')),
  user_group: storedTextSchema(),
  portal_config: z.record(z.string(), z.unknown()).optional().catch(undefined),
  last_seen: storedTextSchema(),
  created_at: storedTextSchema(),
  updated_at: storedTextSchema(),
  updated_by: storedTextSchema(),
}));
export type PortalUserItem = z.infer<ReturnType<typeof portalUserItemSchema>>;

export function readPortalUser(item: TableItem): PortalUserItem {
  return readItem('PortalUser', portalUserItemSchema(), item);
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
export const portalUserModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.portalUser,
  title: 'Portal user profile',
  module: 'portal-user.ts',
  indexes: {},
  items: [{ example: () => portalUserKeys.item(EXAMPLE_CLIENT, '<user_reference>') }],
  accessPatterns: [
    { name: 'Get a portal user profile', serves: '`GET profile`', builders: ['keys.portalUser.item'], example: () => portalUserKeys.item(EXAMPLE_CLIENT, '<user_reference>') },
    { name: 'List portal users of a tenant', serves: '(staff)', builders: ['keys.portalUser.list'], example: () => portalUserKeys.list(EXAMPLE_CLIENT) },
  ],
}));
