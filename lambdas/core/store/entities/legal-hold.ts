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
export const LegalHoldItem = LegalHold.extend({ client: z.string() });
export type LegalHoldItem = z.infer<typeof LegalHoldItem>;

export function readLegalHold(item: TableItem): LegalHoldItem {
  return readItem('LegalHold', LegalHoldItem, item);
}

export function legalHoldToItem(hold: LegalHoldItem): TableItem {
  return { ...retentionKeys.legalHold.item(hold.client, hold.target_type, hold.target), ...hold };
}

/** The hold as the API answers it (the tenant is the path's). */
export function toLegalHold(stored: LegalHoldItem): LegalHold {
  const { client: _tenant, ...hold } = stored;
  return hold;
}
