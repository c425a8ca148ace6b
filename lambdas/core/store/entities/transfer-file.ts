import * as z from 'zod';
import { TransferItem as TransferFile } from '#shared/contract/entities/transfers.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** `1`: a file the transfer carries (recording or report); `9`: a manifest, delivered last. */
export type TransferFileOrder = '1' | '9';

/** A transfer's own partition: its files and the records it reports. */
export const transferPartition = (client: string, transferId: string) => `${tenantPrefix(client)}TRANSFER#${part(transferId)}`;

/**
 * One file of a transfer, in the transfer's own partition, so a transfer of thousands of recordings is never one
 * item and its files read page by page. Sort key `FILE#<order>#<name>`: order `1` for what the transfer carries
 * (a recording, by payload reference; a report), `9` for the manifests written last, so the list reads in delivery
 * order. Keyed by name, a selection repeated after a crash finds the file it already wrote instead of adding one.
 */
export const transferFileKeys = {
  item: (client: string, transferId: string, order: TransferFileOrder, name: string): ItemKeys => ({
    ...transferFileKeys.key(client, transferId, order, name),
    entity: ENTITY.transferFile,
  }),
  key: (client: string, transferId: string, order: TransferFileOrder, name: string): ItemKey => ({
    pk: transferPartition(client, transferId),
    sk: `FILE#${order}#${part(name)}`,
  }),
  /** The transfer's files in delivery order (`sort` narrows to one order: `FILE#1#` the carried files). */
  list: (client: string, transferId: string, order?: TransferFileOrder): ListKey => ({
    partition: transferPartition(client, transferId),
    sort: { beginsWith: order === undefined ? 'FILE#' : `FILE#${order}#` },
  }),
};

/**
 * A record a Vantage transfer reports on (its metadata, not its media), in the transfer's partition under
 * `REC#<payload reference>`: the report is written by reading these page by page.
 */
export const transferRecordKeys = {
  item: (client: string, transferId: string, payloadReference: string): ItemKeys => ({
    pk: transferPartition(client, transferId),
    sk: `REC#${part(payloadReference)}`,
    entity: ENTITY.transferRecord,
  }),
  list: (client: string, transferId: string): ListKey => ({ partition: transferPartition(client, transferId), sort: { beginsWith: 'REC#' } }),
};

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
// Built on first read, not at load: every function bundles this module for its keys (keys.ts), and the contract's
// schema it extends reaches the schedule check (croner), which only the transfer functions should carry.
const buildTransferFileItem = () =>
  TransferFile.extend({
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
let transferFileItemSchema: ReturnType<typeof buildTransferFileItem> | undefined;
const transferFileItem = () => (transferFileItemSchema ??= buildTransferFileItem());

export type TransferFileItem = z.infer<ReturnType<typeof buildTransferFileItem>>;

export function readTransferFile(item: TableItem): TransferFileItem {
  return readItem('TransferFile', transferFileItem(), item);
}

export function transferFileToItem(file: TransferFileItem): TableItem {
  return { ...transferFileKeys.item(file.client, file.transfer_id, file.order as TransferFileOrder, file.name), ...file };
}

/** The file as the API shows it (the contract's per-file record). */
export function toTransferFile(stored: TransferFileItem): TransferFile {
  return TransferFile.parse(stored);
}

/** A record a Vantage transfer reports on: the payload's metadata as the report lists it. */
export const transferRecordItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
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
}));
export type TransferRecordItem = z.infer<ReturnType<typeof transferRecordItemSchema>>;

export function readTransferRecord(item: TableItem): TransferRecordItem {
  return readItem('TransferRecord', transferRecordItemSchema(), item);
}

export function transferRecordToItem(record: TransferRecordItem): TableItem {
  return { ...transferRecordKeys.item(record.client, record.transfer_id, record.payload_reference), ...record };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const transferFileModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.transferFile,
  title: 'One file of a transfer',
  module: 'transfer-file.ts',
  indexes: {},
  items: [{ example: () => transferFileKeys.item(EXAMPLE_CLIENT, '<transfer_id>', '1', '<name>') }],
  accessPatterns: [
    {
      name: 'A transfer\'s files, in delivery order',
      serves: '`GET transfers/{transfer_id}`, `GET transfers/{transfer_id}/files`; the job\'s Pending files (`FILE#1#` carried, `FILE#9#` manifests)',
      builders: ['keys.transferFile.list'],
      example: () => transferFileKeys.list(EXAMPLE_CLIENT, '<transfer_id>'),
    },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const transferRecordModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.transferRecord,
  title: 'A record a Vantage transfer reports',
  module: 'transfer-file.ts',
  indexes: {},
  items: [{ example: () => transferRecordKeys.item(EXAMPLE_CLIENT, '<transfer_id>', '<ref>') }],
  accessPatterns: [
    { name: 'The records a Vantage report reads', serves: 'the `transfer` job\'s report', builders: ['keys.transferRecord.list'], example: () => transferRecordKeys.list(EXAMPLE_CLIENT, '<transfer_id>') },
  ],
}));
