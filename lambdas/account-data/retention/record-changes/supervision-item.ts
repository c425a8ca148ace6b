import type { QuerySpec } from '#core/ports/table-store.ts';
import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { keys } from '#core/store/keys.ts';
import { alsoWhen, markDeleted, markDestroyed, type RecordChanges } from './shared.ts';

/**
 * SupervisionData: one supervision review item (lambdas/supervision/items) with its history, in the item's own
 * partition. It counts from its closing (`closed_at`); an Open, Claimed or Escalated item has not ended and is never
 * due, and reopening one takes its marker off the index until it is closed again. A legal hold on its device or device
 * user keeps it (the item names both, record-people.ts). Deleted marks the item (out of the queue, the reports and
 * every read); Destroyed marks it Destroyed in the disposal's transaction, then its history and its record versions go a
 * page at a time and the item last (bulk-purge.ts): a history has no bound, so it cannot be one transaction.
 *
 * Either write also moves the item's version on, so a reviewer's change racing the disposal (conditional on the
 * version it read) fails rather than writing the item back without its mark; and it is conditional on the item being
 * still Closed.
 */
export function supervisionItemEnded(item: RetainedItemOf<'SupervisionItem'>): boolean {
  return item.state === 'Closed' && item.closed_at !== undefined;
}

/**
 * The item's whole partition: its history entries (`HIST#`) and the versions its changes kept (`VERSION#`), which go
 * with it; the item itself is in it too and is removed last (bulk-purge.ts leaves it to the end).
 */
export function supervisionItemParts(client: string, reference: string): QuerySpec {
  return { partition: keys.supervisionHistory.listByItem(client, reference).partition };
}

const STILL_CLOSED = { expression: '#review_state = :closed', names: { '#review_state': 'state' }, values: { ':closed': 'Closed' } };

export const supervisionItemChanges: RecordChanges = {
  ended: (item) => supervisionItemEnded(readRetainedAs('SupervisionItem', item)),
  change: (_deps, _client, item, { action, condition, disposal }) => {
    const retained = readRetainedAs('SupervisionItem', item);
    const closed = alsoWhen(condition, STILL_CLOSED);
    const write = action === 'Deleted' ? markDeleted(item, closed, disposal) : markDestroyed(item, closed, disposal);
    if (write.kind !== 'update') return [write];
    return [{ ...write, update: { ...write.update, set: { ...write.update.set, item_version: (retained.item_version ?? 0) + 1 } } }];
  },
};
