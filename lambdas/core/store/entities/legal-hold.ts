import * as z from 'zod';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const holdsPartition = (client: string) => `${tenantPrefix(client)}LEGAL_HOLDS`;

/**
 * Legal holds share one partition per tenant, sort key `HOLD#<target_type>#<target>`: a target has at most one hold
 * item (placed, released, placed again), the tenant's holds are one Query, and one type's holds a prefix of it. A
 * tenant has a handful of holds at a time (they name people in litigation), so one partition is no hot spot.
 */
export const legalHoldKeys = {
  item: (client: string, targetType: string, target: string): ItemKeys => ({ ...legalHoldKeys.key(client, targetType, target), entity: ENTITY.legalHold }),
  key: (client: string, targetType: string, target: string): ItemKey => ({ pk: holdsPartition(client), sk: `HOLD#${part(targetType)}#${part(target)}` }),
  /** The tenant's holds, or those of one target type: only `HOLD#` keys (the partition also keeps the holds' versions). */
  list: (client: string, targetType?: string): ListKey => ({
    partition: holdsPartition(client),
    sort: { beginsWith: targetType === undefined ? 'HOLD#' : `HOLD#${part(targetType)}#` },
  }),
};

/**
 * A legal hold on a portal user or a device user (`keys.legalHold`): one item per target, kept when released
 * (`is_active: false`) so the hold's history stays readable; placing it again reactivates the same item and keeps its
 * first `created_at`. Stored as the contract shows it, with the tenant.
 */
export const legalHoldItemSchema = /* @__PURE__ */ onFirstUse(() => LegalHold.extend({
  client: z.string(),
  /**
   * The current walk of a device user's hold over the recordings' objects (lambdas/account-data/legal-holds/hold-sync.ts):
   * each placing or release starts a new one, and a walk writes its progress only while its id is still the item's.
   */
  sync_id: z.string().optional(),
  /** Where that walk stopped (its Query position, JSON), so a job resumes there. */
  sync_position: z.string().optional(),
}));
export type LegalHoldItem = z.infer<ReturnType<typeof legalHoldItemSchema>>;

export function readLegalHold(item: TableItem): LegalHoldItem {
  return readItem('LegalHold', legalHoldItemSchema(), item);
}

export function legalHoldToItem(hold: LegalHoldItem): TableItem {
  return { ...legalHoldKeys.item(hold.client, hold.target_type, hold.target), ...hold };
}

/** The hold as the API answers it (the tenant is the path's; the walk's bookkeeping stays inside). */
export function toLegalHold(stored: LegalHoldItem): LegalHold {
  const { client: _tenant, sync_id: _walk, sync_position: _position, coverage: _coverage, ...hold } = stored;
  return hold;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const legalHoldModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.legalHold,
  title: 'Legal hold, one per target, kept when released',
  module: 'legal-hold.ts',
  indexes: {},
  items: [{ example: () => legalHoldKeys.item(EXAMPLE_CLIENT, '<target_type>', '<target>') }],
  accessPatterns: [
    {
      name: 'Get / place / release a legal hold',
      serves: '`PUT, DELETE account/legal_holds/{target_type}/{target}` (consistent GetItem; put conditional on the read); processing asks whether a recording is held',
      builders: ['keys.legalHold.key'],
      example: () => legalHoldKeys.key(EXAMPLE_CLIENT, '<target_type>', '<target>'),
    },
    {
      name: 'List legal holds (one type\'s)',
      serves: '`GET account/legal_holds` (`active_only` filters); once per request for `held_by`; the retention preview',
      builders: ['keys.legalHold.list'],
      example: () => legalHoldKeys.list(EXAMPLE_CLIENT, '<target_type>'),
    },
  ],
}));
