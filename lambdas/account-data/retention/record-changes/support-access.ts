import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { FINAL_STATES } from '../../../support-access/public.ts';
import { markDeleted, type RecordChanges } from './shared.ts';

/**
 * SupportAccessData: one support-access request with its grant (who asked, for which role, who approved, until when).
 * It ends in a final state (canceled, rejected, revoked, expired: no event leaves them), and counts from that end,
 * its last `updated_at`. A pending or approved request is never due. Deleted marks it (out of the tenant's list and
 * staff's lists); Destroyed removes the item, the disposal record keeping its reference and checksum.
 */
const FINAL = new Set<string>(FINAL_STATES);

export function supportAccessEnded(request: RetainedItemOf<'SupportAccess'>): boolean {
  return request.approval_state !== undefined && FINAL.has(request.approval_state);
}

export const supportAccessChanges: RecordChanges = {
  ended: (item) => supportAccessEnded(readRetainedAs('SupportAccess', item)),
  change: (_deps, _client, item, { action, condition, disposal }) =>
    action === 'Deleted' ? [markDeleted(item, condition, disposal)] : [{ kind: 'delete', key: { pk: item.pk, sk: item.sk }, condition }],
};
