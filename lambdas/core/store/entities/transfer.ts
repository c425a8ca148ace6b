import * as z from 'zod';
import { Transferable } from '#shared/contract/entities/transfers.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A transfer: one run of a transfer configuration (`keys.transfer`), stored as the contract shows it plus its tenant
 * and how it was started (`started_by`: a portal user's `actorOf`, or `schedule` for a scheduled run).
 */
export const TransferItem = Transferable.extend({ client: z.string(), started_by: z.string() });
export type TransferItem = z.infer<typeof TransferItem>;

export function readTransfer(item: TableItem): TransferItem {
  return readItem('Transfer', TransferItem, item);
}

/** The transfer's item: its attributes under its keys. */
export function transferToItem(transfer: TransferItem): TableItem {
  return { ...keys.transfer.item(transfer.client, transfer.transfer_id), ...transfer };
}

/** The transfer as the API answers it. */
export function toTransferable(stored: TransferItem): Transferable {
  const { client: _client, started_by: _startedBy, ...shown } = stored;
  return shown;
}
