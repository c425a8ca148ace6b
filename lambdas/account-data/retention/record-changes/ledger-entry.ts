import { LEDGER_ENTRY_INDEXES } from '#core/store/entities/ledger-entry.ts';
import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { onIndex } from '#core/store/key-parts.ts';
import type { RecordChanges } from './shared.ts';

/**
 * CaptureLedgerData: one ledger entry, a call or message a phone reported seeing (lambdas/completeness), with the
 * outcome of its reconciliation. It counts from its `start_time` (the call's or message's time, as a call recording
 * counts from its payload_time), and a legal hold on its device user, or on whoever holds its device, keeps it
 * (record-people.ts names both).
 *
 * A `Pending` entry is still being reconciled (its recording may yet arrive, and the completeness sweep moves it to
 * `Missing`), so it is not due until its outcome is settled, however short the period.
 *
 * Deleted marks it and takes it out of every list the entry sits in (its device's by time, which matching reads; its
 * device user's; its outcome's), so it is neither listed nor matched again; the item stays, restorable by hand, its
 * index keys being derived from its own fields. Destroyed removes the item, the disposal record keeping its reference
 * (`<device_reference>/<entry_id>`) and checksum.
 *
 * The per-day counts the entry added to are not moved by either: counts are the history of what the phones reported
 * and what was captured, like the recordings' metrics, which retention leaves alone too (docs/decisions.md).
 */
export function ledgerEntryEnded(entry: RetainedItemOf<'LedgerEntry'>): boolean {
  return entry.outcome !== undefined && entry.outcome !== 'Pending';
}

/** The index attributes that place an entry in its lists (removed when it is deleted). */
export const LEDGER_ENTRY_LIST_ATTRIBUTES: readonly string[] = Object.values(LEDGER_ENTRY_INDEXES).flatMap((index) => Object.keys(onIndex[index]('', '')));

export const ledgerEntryChanges: RecordChanges = {
  ended: (item) => ledgerEntryEnded(readRetainedAs('LedgerEntry', item)),
  change: (_deps, _client, item, { action, condition, disposal }) => {
    const key = { pk: item.pk, sk: item.sk };
    if (action === 'Destroyed') return [{ kind: 'delete', key, condition }];
    const update = { set: { retention_state: 'Deleted', deleted_at: disposal.disposed_at }, remove: [...LEDGER_ENTRY_LIST_ATTRIBUTES] };
    return [{ kind: 'update', key, update, condition }];
  },
};
