import { encodeTime, ulid } from 'ulid';
import * as z from 'zod';
import { Transferable } from '#shared/contract/entities/transfer-runs.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const TRANSFER_PREFIX = 'TRANSFER#';

/**
 * A transfer (one run of a configuration), by its ULID. ULIDs sort by their creation time, so the partition read
 * in descending order is newest first, and a creation-time range is a sort-key range of ULID bounds.
 */
export const transferKeys = {
  item: (client: string, transferId: string): ItemKeys => ({ ...transferKeys.key(client, transferId), entity: ENTITY.transfer }),
  key: (client: string, transferId: string): ItemKey => ({ pk: `${tenantPrefix(client)}TRANSFERS`, sk: `${TRANSFER_PREFIX}${part(transferId)}` }),
  list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}TRANSFERS`),
  /** The sort-key range of the transfers created between two instants (epoch milliseconds): ULID time prefixes. */
  createdBetween: (from: number, to: number): [string, string] => [`${TRANSFER_PREFIX}${encodeTime(from, 10)}`, `${TRANSFER_PREFIX}${encodeTime(to, 10)}~`],
};

/**
 * Where a configuration's last Succeeded transfer stopped (its `report_to`): the next run carries what was processed
 * after it. One small item per configuration, so the job reads it instead of walking the transfers.
 */
export const transferWatermarkKeys = {
  item: (client: string, configReference: string): ItemKeys => ({ ...transferWatermarkKeys.key(client, configReference), entity: ENTITY.transferWatermark }),
  key: (client: string, configReference: string): ItemKey => ({ pk: `${tenantPrefix(client)}TRANSFER_WATERMARKS`, sk: `CONFIG#${part(configReference)}` }),
};

/**
 * A transfer: one run of a transfer configuration (`keys.transfer`), stored as the contract shows it plus its tenant,
 * how it was started (`started_by`: a portal user's `actorOf`, or `schedule` for a scheduled run) and the transfer
 * job's own bookkeeping, which the API never shows:
 * - `lease_id` / `lease_until`: the job invocation working on it, so two invocations never deliver at once;
 * - `selection_cursor` / `selection_done`: how far the job has read the payloads it carries (a Query position), so a
 *   selection cut short by the time budget goes on where it stopped;
 * - `invocations`: how many job invocations have worked on it.
 */
export const transferItemSchema = /* @__PURE__ */ onFirstUse(() => Transferable.extend({
  client: z.string(),
  started_by: z.string(),
  lease_id: z.string().optional(),
  lease_until: z.string().optional(),
  selection_cursor: z.string().optional(),
  selection_done: z.boolean().optional(),
  invocations: z.int().min(0).optional(),
}));
export type TransferItem = z.infer<ReturnType<typeof transferItemSchema>>;

export function readTransfer(item: TableItem): TransferItem {
  return readItem('Transfer', transferItemSchema(), item);
}

/** The transfer's item: its attributes under its keys. */
export function transferToItem(transfer: TransferItem): TableItem {
  return { ...transferKeys.item(transfer.client, transfer.transfer_id), ...transfer };
}

/** The transfer as the API answers it (without its files: the caller adds their first page). */
export function toTransferable(stored: TransferItem): Transferable {
  const {
    client: _client,
    started_by: _startedBy,
    lease_id: _leaseId,
    lease_until: _leaseUntil,
    selection_cursor: _cursor,
    selection_done: _selected,
    invocations: _invocations,
    ...shown
  } = stored;
  return shown;
}

/** Where a configuration's last Succeeded transfer stopped: the next run carries what was processed after `report_to`. */
export const transferWatermarkItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  transfer_config_reference: z.string(),
  report_to: z.string(),
  transfer_id: z.string(),
}));
export type TransferWatermarkItem = z.infer<ReturnType<typeof transferWatermarkItemSchema>>;

export function readTransferWatermark(item: TableItem): TransferWatermarkItem {
  return readItem('TransferWatermark', transferWatermarkItemSchema(), item);
}

export function transferWatermarkToItem(mark: TransferWatermarkItem): TableItem {
  return { ...transferWatermarkKeys.item(mark.client, mark.transfer_config_reference), ...mark };
}

/** How a run starts: when, by whom (a portal user's `actorOf`, `schedule`, or the job), and what a re-run keeps. */
export interface TransferStart {
  now: Date;
  startedBy: string;
  /** What a re-run keeps of the run it repeats. */
  extra?: Pick<Partial<TransferItem>, 'rerun_of' | 'report_from' | 'report_to'>;
}

/** A new run of a configuration, Pending until its job starts, under a fresh time-ordered id. */
export function pendingTransfer(
  client: string,
  config: Pick<TransferItem, 'transfer_config_reference' | 'transfer_type'>,
  { now, startedBy, extra = {} }: TransferStart,
): TransferItem {
  return {
    client,
    transfer_id: ulid(now.getTime()),
    transfer_config_reference: config.transfer_config_reference,
    transfer_type: config.transfer_type,
    created_at: now.toISOString(),
    transfer_state: 'Pending',
    transfers: [],
    related_payloads: [],
    payload_count: 0,
    ...extra,
    started_by: startedBy,
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const transferModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.transfer,
  title: 'Transfer, one run of a configuration',
  module: 'transfer.ts',
  indexes: {},
  items: [{ example: () => transferKeys.item(EXAMPLE_CLIENT, '<transfer_id>') }],
  accessPatterns: [
    {
      name: 'Record a transfer; list transfers, newest first',
      serves: 'run now, re-run, a scheduled job (put `item-not-exists`); `GET transfers` (`from`/`to`: a sort-key range of ULID time bounds)',
      builders: ['keys.transfer.list', 'keys.transfer.createdBetween'],
      example: () => transferKeys.list(EXAMPLE_CLIENT),
    },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const transferWatermarkModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.transferWatermark,
  title: 'A configuration\'s last Succeeded window end',
  module: 'transfer.ts',
  indexes: {},
  items: [{ example: () => transferWatermarkKeys.item(EXAMPLE_CLIENT, '<transfer_config_reference>') }],
  accessPatterns: [],
}));
