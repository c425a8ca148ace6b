import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';

/**
 * Tenant accounts and the people and settings that administer them: portal users, terms acceptances, roles, groups,
 * tag definitions, client apps and support access (the audit trails' keys are in audit.ts).
 */
export const accessKeys = {
  /** The tenant's account item (the client record, defaults, migration config live beside it by sort key). */
  account: {
    item: (client: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ACCOUNT`,
      sk: 'ACCOUNT',
      entity: ENTITY.account,
      // Staff list every client: the list lives in the provider's own tenant, so it too starts with a client.
      gsi1pk: `${tenantPrefix('admin')}CLIENTS`,
      gsi1sk: part(client),
    }),
    /** A named account setting (`DEFAULTS`, `MIGRATION`, `RETENTION`, …) in the account partition. */
    setting: (client: string, name: string): ItemKey => ({ pk: `${tenantPrefix(client)}ACCOUNT`, sk: `SETTING#${part(name)}` }),
    /** Internal console: all clients. */
    listAll: (): ListKey => list('gsi1', `${tenantPrefix('admin')}CLIENTS`),
  },
  portalUser: {
    item: (client: string, userReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PORTAL_USERS`,
      sk: `USER#${part(userReference)}`,
      entity: ENTITY.portalUser,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}PORTAL_USERS`),
  },
  /**
   * One user's acceptance of one version of the terms of use (`valid_from`), in the tenant the user acts in. Its own
   * partition, not the portal users': lists of portal users must not read acceptances. The acting user is a tenant
   * user (`USER#<sub>`) or, in support mode, a staff member (`STAFF#<sub>`): staff subjects come from another identity
   * pool, so the prefix keeps them from ever meeting a tenant user's. The user's acceptances of every version share
   * the prefix `<USER|STAFF>#<sub>#TERMS#`.
   */
  termsAcceptance: {
    item: (client: string, user: { reference: string; staff: boolean }, validFrom: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TERMS_ACCEPTANCES`,
      sk: `${user.staff ? 'STAFF' : 'USER'}#${part(user.reference)}#TERMS#${part(validFrom)}`,
      entity: ENTITY.termsAcceptance,
    }),
  },
  role: {
    item: (client: string, roleReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ROLES`,
      sk: `ROLE#${part(roleReference)}`,
      entity: ENTITY.role,
    }),
    /** The tenant's roles, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}ROLES`, 'ROLE#', startsWith),
  },
  group: {
    item: (client: string, groupReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}GROUPS`,
      sk: `GROUP#${part(groupReference)}`,
      entity: ENTITY.group,
    }),
    /** The tenant's groups, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}GROUPS`, 'GROUP#', startsWith),
  },
  tagDefinition: {
    item: (client: string, tagKey: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TAGS`,
      sk: `TAG#${part(tagKey)}`,
      entity: ENTITY.tagDefinition,
    }),
    /** The tenant's tag definitions, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}TAGS`, 'TAG#', startsWith),
  },
  clientApp: {
    item: (client: string, appReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}APPS`,
      sk: `APP#${part(appReference)}`,
      entity: ENTITY.clientApp,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}APPS`),
  },
  supportAccess: {
    /**
     * A support-access request lives in the tenant it is for. Staff list requests by state across tenants, so the
     * item also sits in a per-state partition of the provider's own tenant (gsi1); a state change rewrites that key.
     */
    item: (client: string, requestReference: string, approvalState: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}SUPPORT`,
      sk: `REQ#${part(requestReference)}`,
      entity: ENTITY.supportAccess,
      gsi1pk: `${tenantPrefix('admin')}SUPPORT#${part(approvalState)}`,
      gsi1sk: `${part(client)}#${part(requestReference)}`,
    }),
    key: (client: string, requestReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}SUPPORT`,
      sk: `REQ#${part(requestReference)}`,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}SUPPORT`),
    listByState: (approvalState: string): ListKey => list('gsi1', `${tenantPrefix('admin')}SUPPORT#${part(approvalState)}`),
  },
};
