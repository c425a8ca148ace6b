import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { markDeleted, type RecordChanges } from './shared.ts';

/**
 * A four eyes' pending change (lambdas/account-data/approvals), under UserActivityData: once approved, rejected or
 * expired it is the record of who asked for a hold's release or a shorter period and who approved it, and is kept as
 * long as the activity records of those acts, counted from its decision (`decided_at`). A pending change is never
 * due. Deleted marks it (out of the approvals list and reads); Destroyed removes the item, the disposal record
 * keeping its reference and checksum.
 */
export function approvalEnded(change: RetainedItemOf<'PendingChange'>): boolean {
  return change.status !== undefined && change.status !== 'Pending' && change.decided_at !== undefined;
}

export const approvalChanges: RecordChanges = {
  ended: (item) => approvalEnded(readRetainedAs('PendingChange', item)),
  change: (_deps, _client, item, { action, condition, disposal }) =>
    action === 'Deleted' ? [markDeleted(item, condition, disposal)] : [{ kind: 'delete', key: { pk: item.pk, sk: item.sk }, condition }],
};
