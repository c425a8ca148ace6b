import * as z from 'zod';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { retentionKeys } from '../keys/retention.ts';
import { readItem } from './read-item.ts';

/**
 * A legal hold on a portal user or a device user (`keys.legalHold`): one item per target, kept when released
 * (`is_active: false`) so the hold's history stays readable; placing it again reactivates the same item and keeps its
 * first `created_at`. Stored as the contract shows it, with the tenant.
 */
export const LegalHoldItem = LegalHold.extend({
  client: z.string(),
  /**
   * The current walk of a device user's hold over the recordings' objects (lambdas/account-data/legal-holds/hold-sync.ts):
   * each placing or release starts a new one, and a walk writes its progress only while its id is still the item's.
   */
  sync_id: z.string().optional(),
  /** Where that walk stopped (its Query position, JSON), so a job resumes there. */
  sync_position: z.string().optional(),
});
export type LegalHoldItem = z.infer<typeof LegalHoldItem>;

export function readLegalHold(item: TableItem): LegalHoldItem {
  return readItem('LegalHold', LegalHoldItem, item);
}

export function legalHoldToItem(hold: LegalHoldItem): TableItem {
  return { ...retentionKeys.legalHold.item(hold.client, hold.target_type, hold.target), ...hold };
}

/** The hold as the API answers it (the tenant is the path's; the walk's bookkeeping stays inside). */
export function toLegalHold(stored: LegalHoldItem): LegalHold {
  const { client: _tenant, sync_id: _walk, sync_position: _position, coverage: _coverage, ...hold } = stored;
  return hold;
}
