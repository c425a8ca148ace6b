import type { SupervisionHistoryEntry } from '#shared/contract/entities/supervision.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '#core/ports/table-store.ts';
import { readSupervisionHistory, supervisionHistoryToItem } from '#core/store/entities/supervision-history.ts';
import { readSupervisionItem, supervisionItemToItem, type SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { dueMarkerSync } from '../../account-data/public.ts';

type TableDeps = Pick<Dependencies, 'table'>;


/** The item read, with its attributes exactly as stored (what a change keeps as the version it replaced). */
export async function readStoredEntry(deps: TableDeps, client: string, itemReference: string): Promise<{ item: TableItem; stored: SupervisionItemStored } | undefined> {
  const item = await deps.table.get(keys.supervisionItem.key(client, itemReference), { consistent: true });
  return item === undefined ? undefined : { item, stored: readSupervisionItem(item) };
}

/** The item's whole history, oldest first. */
export async function readHistory(deps: TableDeps, client: string, itemReference: string): Promise<SupervisionHistoryEntry[]> {
  const entries: SupervisionHistoryEntry[] = [];
  for await (const page of eachPage(deps.table, { ...keys.supervisionHistory.listByItem(client, itemReference), consistent: true })) {
    entries.push(...page.map(readSupervisionHistory));
  }
  return entries;
}

/** One change of an item: the item after it, the version it was read at (undefined: a new item), its history entries. */
interface ItemChange {
  next: SupervisionItemStored;
  previousVersion: number | undefined;
  entries: readonly SupervisionHistoryEntry[];
  /** Whether the item was Closed before this change: a reopening takes its retention marker off the due index. */
  wasClosed?: boolean;
  /** Writes that go with the change: the version of the item it replaced (versionWrites). */
  also?: readonly TransactOperation[];
}

/**
 * The writes of one change: the item as it now is, on condition it is still the version read (or, for a new item, that
 * none exists), and its new history entries, each on condition its slot is free. `previousVersion` is undefined for a
 * new item. The entries take the versions after the previous one, in order, ending at the item's new version. Closing
 * puts the item's retention marker (SupervisionData counts from `closed_at`) and reopening removes it, in the same
 * transaction, so the due index never disagrees with the item.
 */
function changeWrites(client: string, change: ItemChange): TransactOperation[] {
  const { next, previousVersion, entries } = change;
  const first = (previousVersion ?? 0) + 1;
  if (next.item_version !== first + entries.length - 1) throw new Error('A change writes one history entry per version it adds');
  const itemWrite: TransactOperation = {
    kind: 'put',
    item: supervisionItemToItem(client, next),
    condition:
      previousVersion === undefined
        ? { kind: 'item-not-exists' }
        : { kind: 'expression', expression: '#version = :version', names: { '#version': 'item_version' }, values: { ':version': previousVersion } },
  };
  const historyWrites: TransactOperation[] = entries.map((entry, index) => ({
    kind: 'put',
    item: supervisionHistoryToItem(client, next.item_reference, first + index, entry),
    condition: { kind: 'item-not-exists' },
  }));
  const closing = next.state === 'Closed' || change.wasClosed === true;
  return [itemWrite, ...historyWrites, ...(closing ? dueMarkerSync(client, itemWrite.item) : []), ...(change.also ?? [])];
}

/**
 * Writes one change in one transaction. False when the item changed meanwhile (a lost race): the caller reads again
 * and decides anew; nothing was written.
 */
export async function writeChange(deps: TableDeps, client: string, change: ItemChange): Promise<boolean> {
  try {
    await deps.table.transactWrite(changeWrites(client, change));
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

