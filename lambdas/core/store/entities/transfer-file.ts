import * as z from 'zod';
import { TransferItem as TransferFile } from '#shared/contract/entities/transfers.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import type { TransferFileOrder } from '../keys/transfers.ts';
import { readItem } from './read-item.ts';

/**
 * One file of a transfer (`keys.transferFile`), its own item in the transfer's partition: the contract's per-file
 * record (`TransferItem`) plus what the job needs to resume it and to write the manifest without reading anything
 * twice:
 * - `name` (the key's name), `order`, `relative_path` (where the destination writes it, under the transfer's folder);
 * - for a recording: `entry_name` (its name in the package), `entry_size` and `entry_sha256` (the plaintext read),
 *   `source_bytes` (the stored object's size, for progress), and the custody times `recorded_at`, `uploaded_at`,
 *   `processed_at` (`delivered_at` is the fourth);
 * - `unrecorded_arrivals`: files an earlier attempt wrote but could not record (see decisions.md "Transfers");
 * - `staged`: what an attempt had sent in full, written just before the file was renamed into place, so an attempt
 *   killed between the arrival and its record is completed from it rather than delivered again.
 */
export const TransferFileItem = TransferFile.extend({
  client: z.string(),
  transfer_id: z.string(),
  name: z.string(),
  order: z.enum(['1', '9']),
  relative_path: z.string(),
  /** The recording's type, so a reader limited to some payload types sees only files of those. */
  payload_type: z.string().optional(),
  entry_name: z.string().optional(),
  entry_size: z.int().min(0).optional(),
  entry_sha256: z.string().optional(),
  source_bytes: z.int().min(0).optional(),
  recorded_at: z.string().optional(),
  uploaded_at: z.string().optional(),
  processed_at: z.string().optional(),
  unrecorded_arrivals: z.array(z.string()).optional(),
  staged: z
    .object({
      relative_path: z.string(),
      bytes: z.int().min(0),
      sha256: z.string(),
      entry_name: z.string(),
      entry_size: z.int().min(0).optional(),
      entry_sha256: z.string().optional(),
    })
    .optional(),
});
export type TransferFileItem = z.infer<typeof TransferFileItem>;

export function readTransferFile(item: TableItem): TransferFileItem {
  return readItem('TransferFile', TransferFileItem, item);
}

export function transferFileToItem(file: TransferFileItem): TableItem {
  return { ...keys.transferFile.item(file.client, file.transfer_id, file.order as TransferFileOrder, file.name), ...file };
}

/** The file as the API shows it (the contract's per-file record). */
export function toTransferFile(stored: TransferFileItem): TransferFile {
  return TransferFile.parse(stored);
}

/** A record a Vantage transfer reports on: the payload's metadata as the report lists it. */
export const TransferRecordItem = z.object({
  client: z.string(),
  transfer_id: z.string(),
  payload_reference: z.string(),
  payload_type: z.string(),
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  device_sha256: z.string(),
  source_path: z.string(),
  source_bytes: z.int().min(0).optional(),
  recorded_at: z.string(),
  uploaded_at: z.string().optional(),
  processed_at: z.string(),
  second_party_numbers: z.string().optional(),
  payload_duration: z.number().optional(),
});
export type TransferRecordItem = z.infer<typeof TransferRecordItem>;

export function readTransferRecord(item: TableItem): TransferRecordItem {
  return readItem('TransferRecord', TransferRecordItem, item);
}

export function transferRecordToItem(record: TransferRecordItem): TableItem {
  return { ...keys.transferRecord.item(record.client, record.transfer_id, record.payload_reference), ...record };
}
