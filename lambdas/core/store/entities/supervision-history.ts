import { SupervisionHistoryEntry } from '#shared/contract/entities/supervision.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { supervisionItemPartition } from './supervision-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const HISTORY_PREFIX = 'HIST#';
/** Sequence numbers are zero-padded so the entries sort in the order written. */
const SEQUENCE_DIGITS = 8;

/**
 * A review item's history (lambdas/supervision/items): in the item's own partition under `HIST#<seq>`, where `seq` is
 * the item's version the entry produced. Each entry is put on condition it does not exist, in the same transaction as
 * the item's change (conditional on the version it read), so the history has exactly one entry per version, in order,
 * and nothing ever rewrites one.
 */
export const supervisionHistoryKeys = {
  entry: (client: string, itemReference: string, sequence: number): ItemKeys => ({
    pk: supervisionItemPartition(client, itemReference),
    sk: `${HISTORY_PREFIX}${String(sequence).padStart(SEQUENCE_DIGITS, '0')}`,
    entity: ENTITY.supervisionHistory,
  }),
  /** One item's history, oldest first: its partition narrowed to `HIST#`. */
  listByItem: (client: string, itemReference: string): ListKey => ({ ...list(undefined, supervisionItemPartition(client, itemReference)), sort: { beginsWith: HISTORY_PREFIX } }),
};

export function readSupervisionHistory(item: TableItem): SupervisionHistoryEntry {
  return readItem('SupervisionHistory', SupervisionHistoryEntry, item);
}

export function supervisionHistoryToItem(client: string, itemReference: string, sequence: number, entry: SupervisionHistoryEntry): TableItem {
  return { ...supervisionHistoryKeys.entry(client, itemReference, sequence), ...entry };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const supervisionHistoryModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.supervisionHistory,
  title: 'Supervision item history entry',
  module: 'supervision-history.ts',
  indexes: {},
  items: [{ example: () => supervisionHistoryKeys.entry(EXAMPLE_CLIENT, '<payload_reference>', 3) }],
  accessPatterns: [
    {
      name: 'One item\'s history, oldest first',
      serves: '`GET supervision/items/{item_reference}`; retention removes it with its item',
      builders: ['keys.supervisionHistory.listByItem'],
      example: () => supervisionHistoryKeys.listByItem(EXAMPLE_CLIENT, '<payload_reference>'),
    },
  ],
}));
