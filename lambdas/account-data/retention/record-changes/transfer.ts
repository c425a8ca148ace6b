import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { keys } from '#core/store/keys.ts';
import type { QuerySpec } from '#core/ports/table-store.ts';
import { markDeleted, markDestroyed, type RecordChanges } from './shared.ts';

/**
 * TransferableData: one finished transfer run (Succeeded, PartialFail, Failed) with what it recorded of its delivery:
 * the file items (each recording's checksums and delivery, the manifests) and a Vantage report's records, all in the
 * run's own partition. It counts from its finish (`completed_at`); a Pending or InProgress run is never due, and the
 * transfer configurations are settings, not records. Deleted marks the run (out of the transfers list); Destroyed
 * marks it Destroyed in the disposal's transaction, then its files and records go a page at a time, and the run's item
 * last (bulk-purge.ts).
 */
const FINISHED = new Set<string>(['Succeeded', 'PartialFail', 'Failed']);

export function transferEnded(transfer: RetainedItemOf<'Transfer'>): boolean {
  return transfer.transfer_state !== undefined && FINISHED.has(transfer.transfer_state) && transfer.completed_at !== undefined;
}

/** The run's own partition: its files (`FILE#`) and reported records (`REC#`). */
export function transferParts(client: string, transferId: string): QuerySpec {
  return { partition: keys.transferFile.list(client, transferId).partition };
}

export const transferChanges: RecordChanges = {
  ended: (item) => transferEnded(readRetainedAs('Transfer', item)),
  change: (_deps, _client, item, { action, condition, disposal }) => [action === 'Deleted' ? markDeleted(item, condition, disposal) : markDestroyed(item, condition, disposal)],
};
