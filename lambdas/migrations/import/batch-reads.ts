import type { ItemKey, TableItem, TableStore } from '../../core/ports/table-store.ts';

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/**
 * What a batch of rows read, all at once: the items at the keys asked for (absent ones remembered as absent), read
 * consistently with BatchGet (100 keys a call) instead of one GetItem each. `table` is the store as a batch reads it:
 * `get` answers from what was read and reads a key nobody asked for on its own (and remembers it), so a domain helper
 * that takes the table (the retention policy, legal-hold coverage) reads from the batch unchanged. It is for reading
 * only: a batch's reads are taken before any of its writes, and its writes go to the real store.
 */
export interface BatchReads {
  table: TableStore;
  /** Reads the keys not read yet, in one BatchGet round. */
  read(keys: readonly ItemKey[]): Promise<void>;
  /** The item at a key read before (undefined when it does not exist). Throws for a key never read. */
  item(key: ItemKey): TableItem | undefined;
}

export function batchReads(store: TableStore): BatchReads {
  const known = new Map<string, TableItem | null>();

  const read = async (keys: readonly ItemKey[]) => {
    const wanted = new Map<string, ItemKey>();
    for (const key of keys) if (!known.has(idOf(key))) wanted.set(idOf(key), { pk: key.pk, sk: key.sk });
    if (wanted.size === 0) return;
    const found = await store.batchGet([...wanted.values()], { consistent: true });
    for (const id of wanted.keys()) known.set(id, null);
    for (const item of found) known.set(idOf(item), item);
  };

  const item = (key: ItemKey) => {
    const value = known.get(idOf(key));
    if (value === undefined) throw new Error(`${key.pk} ${key.sk} was not read with the batch`);
    return value ?? undefined;
  };

  const table: TableStore = {
    ...store,
    async get(key) {
      if (!known.has(idOf(key))) known.set(idOf(key), (await store.get(key, { consistent: true })) ?? null);
      return known.get(idOf(key)) ?? undefined;
    },
  };

  return { table, read, item };
}
