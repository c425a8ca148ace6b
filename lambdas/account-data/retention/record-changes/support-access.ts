import { FINAL_STATES } from '../../../support-access/state-machine.ts';
import { markDeleted, type RecordChanges } from './shared.ts';

/**
 * SupportAccessData: one support-access request with its grant (who asked, for which role, who approved, until when).
 * It ends in a final state (canceled, rejected, revoked, expired: no event leaves them), and counts from that end,
 * its last `updated_at`. A pending or approved request is never due. Deleted marks it (out of the tenant's list and
 * staff's lists); Destroyed removes the item, the disposal record keeping its reference and checksum.
 */
const FINAL = new Set<string>(FINAL_STATES);

export function supportAccessEnded(item: Readonly<Record<string, unknown>>): boolean {
  return typeof item.approval_state === 'string' && FINAL.has(item.approval_state);
}

export const supportAccessChanges: RecordChanges = {
  ended: supportAccessEnded,
  change: (_deps, _client, item, pass, condition, disposal) =>
    pass.action === 'Deleted' ? [markDeleted(item, condition, disposal)] : [{ kind: 'delete', key: { pk: item.pk, sk: item.sk }, condition }],
};
