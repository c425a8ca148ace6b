import * as z from 'zod';
import { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes: staff list requests by state across tenants, in the provider's own tenant. */
export const SUPPORT_ACCESS_INDEXES = { byState: 'gsi1' } as const;

const byStatePartition = (approvalState: string) => `${tenantPrefix('admin')}SUPPORT#${part(approvalState)}`;

export const supportAccessKeys = {
  /**
   * A support-access request lives in the tenant it is for. Staff list requests by state across tenants, so the
   * item also sits in a per-state partition of the provider's own tenant (byState); a state change rewrites that key.
   */
  item: (client: string, requestReference: string, approvalState: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}SUPPORT`,
    sk: `REQ#${part(requestReference)}`,
    entity: ENTITY.supportAccess,
    ...onIndex[SUPPORT_ACCESS_INDEXES.byState](byStatePartition(approvalState), `${part(client)}#${part(requestReference)}`),
  }),
  key: (client: string, requestReference: string): ItemKey => ({
    pk: `${tenantPrefix(client)}SUPPORT`,
    sk: `REQ#${part(requestReference)}`,
  }),
  list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}SUPPORT`),
  listByState: (approvalState: string): ListKey => list(SUPPORT_ACCESS_INDEXES.byState, byStatePartition(approvalState)),
};

/**
 * A support-access request as stored (lambdas/support-access/support-access-store.ts has the modelling note): the
 * contract's SupportAccess fields, plus the tenant, who asked and who changed it last. Support mode reads
 * `approval_state` and `approval_expiry` from it.
 */
export const supportAccessItemSchema = /* @__PURE__ */ onFirstUse(() => SupportAccess.extend({
  client: z.string(),
  requested_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
}));
export type SupportAccessItem = z.infer<ReturnType<typeof supportAccessItemSchema>>;

export function readSupportAccess(item: TableItem): SupportAccessItem {
  return readItem('SupportAccess', supportAccessItemSchema(), item);
}

/**
 * What support mode reads of a request (lambdas/core/auth/access/resolve-access.ts): its contract fields, or undefined
 * when the item does not read as a request. Support mode refuses such an item as it refuses a request that does not
 * exist (a 403), rather than failing every call made under it.
 */
export function claimedSupportGrant(item: TableItem): SupportAccess | undefined {
  return claimItem(SupportAccess, item);
}

/** A new request: in its tenant's list and on its state's cross-tenant list. */
export function supportAccessToItem(request: SupportAccessItem): TableItem {
  return { ...supportAccessKeys.item(request.client, request.request_reference, request.approval_state), ...request };
}

/** The request as the contract shows it (the last-change stamps dropped). */
export function toSupportAccess(stored: SupportAccessItem): SupportAccess {
  return SupportAccess.parse(stored);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const supportAccessModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.supportAccess,
  title: 'Support-access request',
  module: 'support-access.ts',
  indexes: SUPPORT_ACCESS_INDEXES,
  items: [{ example: () => supportAccessKeys.item(EXAMPLE_CLIENT, '<request_reference>', '<approval_state>') }],
  accessPatterns: [
    { name: 'List a tenant\'s support requests', serves: '`GET supportaccess`, internal `/clients/{client}/supportaccess`', builders: ['keys.supportAccess.list'], example: () => supportAccessKeys.list(EXAMPLE_CLIENT) },
    { name: 'Support requests by state, all tenants', serves: 'internal `GET /supportaccess/{approval_status}`, the expiry job', builders: ['keys.supportAccess.listByState'], example: () => supportAccessKeys.listByState('<approval_state>') },
  ],
}));
