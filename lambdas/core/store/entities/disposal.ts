import * as z from 'zod';
import { Disposal } from '#shared/contract/entities/account-data.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Disposal records (what the retention job deleted or destroyed): one partition per tenant, sort key
 * `<disposed_at>#<disposal_id>`, so the audit screen reads newest first and a time range is a key condition.
 */
export const disposalKeys = {
  item: (client: string, disposedAt: Date | string, disposalId: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}DISPOSALS`,
    sk: timeSort(disposedAt, disposalId),
    entity: ENTITY.disposal,
  }),
  list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}DISPOSALS`),
};

/**
 * A disposal record (`keys.disposal`): what the retention job deleted or destroyed, written in the same transaction as
 * the record's change of state, so a disposal never happens without it. Stored as the contract shows it, with the
 * tenant; never updated.
 */
export const disposalItemSchema = /* @__PURE__ */ onFirstUse(() => Disposal.extend({ client: z.string() }));
export type DisposalItem = z.infer<ReturnType<typeof disposalItemSchema>>;

export function readDisposal(item: TableItem): DisposalItem {
  return readItem('Disposal', disposalItemSchema(), item);
}

/** The record an item claims to be, or undefined (the list leaves out what does not read). */
export function claimedDisposal(item: TableItem): DisposalItem | undefined {
  return claimItem(disposalItemSchema(), item);
}

export function disposalToItem(disposal: DisposalItem): TableItem {
  return { ...disposalKeys.item(disposal.client, disposal.disposed_at, disposal.disposal_id), ...disposal };
}

export function toDisposal(stored: DisposalItem): Disposal {
  const { client: _tenant, ...disposal } = stored;
  return disposal;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const disposalModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.disposal,
  title: 'Disposal record, never updated',
  module: 'disposal.ts',
  indexes: {},
  items: [{ example: () => disposalKeys.item(EXAMPLE_CLIENT, '<disposed_at>', '<disposal_id>') }],
  accessPatterns: [
    { name: 'Disposal records, newest first', serves: '`GET disposals` (`from`/`to` on `disposed_at`: key condition)', builders: ['keys.disposal.list'], example: () => disposalKeys.list(EXAMPLE_CLIENT) },
  ],
}));
