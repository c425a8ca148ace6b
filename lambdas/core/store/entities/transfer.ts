import { ulid } from 'ulid';
import * as z from 'zod';
import { Transferable } from '#shared/contract/entities/transfer-runs.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A transfer: one run of a transfer configuration (`keys.transfer`), stored as the contract shows it plus its tenant,
 * how it was started (`started_by`: a portal user's `actorOf`, or `schedule` for a scheduled run) and the transfer
 * job's own bookkeeping, which the API never shows:
 * - `lease_id` / `lease_until`: the job invocation working on it, so two invocations never deliver at once;
 * - `selection_cursor` / `selection_done`: how far the job has read the payloads it carries (a Query position), so a
 *   selection cut short by the time budget goes on where it stopped;
 * - `invocations`: how many job invocations have worked on it.
 */
export const TransferItem = Transferable.extend({
  client: z.string(),
  started_by: z.string(),
  lease_id: z.string().optional(),
  lease_until: z.string().optional(),
  selection_cursor: z.string().optional(),
  selection_done: z.boolean().optional(),
  invocations: z.int().min(0).optional(),
});
export type TransferItem = z.infer<typeof TransferItem>;

export function readTransfer(item: TableItem): TransferItem {
  return readItem('Transfer', TransferItem, item);
}

/** The transfer's item: its attributes under its keys. */
export function transferToItem(transfer: TransferItem): TableItem {
  return { ...keys.transfer.item(transfer.client, transfer.transfer_id), ...transfer };
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
export const TransferWatermarkItem = z.object({
  client: z.string(),
  transfer_config_reference: z.string(),
  report_to: z.string(),
  transfer_id: z.string(),
});
export type TransferWatermarkItem = z.infer<typeof TransferWatermarkItem>;

export function readTransferWatermark(item: TableItem): TransferWatermarkItem {
  return readItem('TransferWatermark', TransferWatermarkItem, item);
}

export function transferWatermarkToItem(mark: TransferWatermarkItem): TableItem {
  return { ...keys.transferWatermark.item(mark.client, mark.transfer_config_reference), ...mark };
}

/**
 * A new run of a configuration, Pending until its job starts, under a fresh time-ordered id. `startedBy` is a portal
 * user's `actorOf`, `schedule`, or the job; `extra` carries what a re-run keeps of the run it repeats.
 */
export function pendingTransfer(
  client: string,
  config: Pick<TransferItem, 'transfer_config_reference' | 'transfer_type'>,
  now: Date,
  startedBy: string,
  extra: Pick<Partial<TransferItem>, 'rerun_of' | 'report_from' | 'report_to'> = {},
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
