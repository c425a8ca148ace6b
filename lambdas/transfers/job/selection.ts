import { readAccount } from '#core/store/entities/account.ts';
import { claimItem } from '#core/store/entities/read-item.ts';
import { type PayloadItem, payloadItemSchema } from '#core/store/entities/payload.ts';
import { readTransferFile, transferFileToItem, transferRecordToItem, type TransferFileItem, type TransferRecordItem } from '#core/store/entities/transfer-file.ts';
import type { TransferItem } from '#core/store/entities/transfer.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { BY_PROCESSED_AT } from '#core/store/table-definition.ts';
import { ConditionFailedError, type QuerySpec, type TableItem, type TransactOperation } from '#core/ports/table-store.ts';
import { TAG_BYTES } from '../../device-crypto/public.ts';
import { TRANSFERABLE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { holdsLease, LeaseLostError, outOfBudget, type RunContext } from './context.ts';

/** Payloads read per Query page: each page's chosen files and the new cursor are one transaction (at most 100 writes). */
const SELECTION_PAGE = 90;

/**
 * What a transfer carries, chosen page by page and checkpointed: each page's files (or, for Vantage, records) are
 * written in ONE transaction with the transfer's new Query position and its counters, so a selection cut short by
 * the time budget or a crash goes on where it stopped, never choosing a payload twice nor counting it twice.
 *
 * - A first run reads its window of the tenant's Processed recordings by processing time (the byProcessedAt index,
 *   `report_from` to `report_to`: one key range, so it reads what its window holds, not the tenant's history) and
 *   keeps those of the configuration's transferable types processed in (`report_from`, `report_to`].
 * - A re-run of a Payload transfer that chose its files reads the first transfer's files and carries those it did not
 *   deliver; any other re-run reads the first one's window again.
 *
 * Returns true when the selection is complete, false when the budget ran out first.
 */
export async function selectPayloads(context: RunContext, transfer: TransferItem, rerunOf: TransferItem | undefined): Promise<boolean> {
  const { deps, client } = context;
  if (transfer.selection_done === true) return true;
  const fromFiles = rerunOf !== undefined && rerunOf.selection_done === true && context.config.transfer_type === 'Payload';
  let cursor = transfer.selection_cursor === undefined ? undefined : (JSON.parse(transfer.selection_cursor) as Record<string, string>);
  const query: QuerySpec = fromFiles ? keys.transferFile.list(client, rerunOf.transfer_id, '1') : await windowQuery(context, transfer, cursor);
  for (;;) {
    if (outOfBudget(context)) return false;
    const page = await deps.table.query({ ...query, limit: SELECTION_PAGE, ...(cursor === undefined ? {} : { startKey: cursor }) });
    const payloads = fromFiles ? await undeliveredPayloads(context, page.items) : page.items.map((item) => claimItem(payloadItemSchema(), item));
    const chosen = payloads.filter((payload): payload is PayloadItem => payload !== undefined && carries(context, transfer, payload));
    const done = page.lastKey === undefined;
    await commitPage(context, chosen, page.lastKey, done);
    if (done) return true;
    cursor = page.lastKey;
  }
}

/**
 * The Query that reads the transfer's window. The byProcessedAt range from `report_from` (inclusive: a payload
 * processed at that very instant is read and left out by `carries`) to `report_to`, once the tenant's Processed
 * payloads all carry its keys (the account's `processed_indexed_at`). Before that, the tenant's whole list by recording time
 * up to `report_to` (a payload is recorded before it is processed), as selection read before the index: a recording
 * processed before its keys were written is never left out, it only costs the whole history. A selection that
 * stopped part way goes on with the Query its position belongs to.
 */
async function windowQuery(context: RunContext, transfer: TransferItem, cursor: Record<string, string> | undefined): Promise<QuerySpec> {
  const { deps, client } = context;
  const to = `${transfer.report_to ?? transfer.created_at}~`;
  const indexed = cursor === undefined ? (await tenantIndexed(context)) : BY_PROCESSED_AT.sortKey in cursor;
  if (indexed) return { ...keys.payload.listProcessed(client), sort: { between: [transfer.report_from ?? '0', to] } };
  deps.logger.warn('transfer selection reads the tenant\'s whole recording list: its processed-time index is not backfilled (processed-index-backfill)', {
    client,
    transfer_id: transfer.transfer_id,
  });
  return { ...keys.payload.list(client), sort: { between: ['0', to] } };
}

/** Whether every Processed payload of the tenant carries its byProcessedAt keys (entities/account.ts). */
async function tenantIndexed(context: RunContext): Promise<boolean> {
  const account = await context.deps.table.get(keys.account.item(context.client), { consistent: true });
  return account !== undefined && readAccount(account).processed_indexed_at !== undefined;
}

/** The payloads of a first transfer's files that it did not deliver, read again (their state may have moved). */
async function undeliveredPayloads(context: RunContext, files: readonly TableItem[]): Promise<Array<PayloadItem | undefined>> {
  const references = files
    .map(readTransferFile)
    .filter((file: TransferFileItem) => file.file_state !== 'Delivered' && file.payload_reference !== undefined)
    .map((file) => file.payload_reference as string);
  if (references.length === 0) return [];
  const items = await context.deps.table.batchGet(references.map((reference) => keys.payload.key(context.client, reference)));
  return items.map((item) => claimItem(payloadItemSchema(), item));
}

const TRANSFERABLE = new Set<string>(TRANSFERABLE_PAYLOAD_TYPES);

/** Whether the transfer carries this payload: Processed, of the configuration's transferable types, in the window. */
function carries(context: RunContext, transfer: TransferItem, payload: PayloadItem): boolean {
  if (payload.payload_state !== 'Processed' || payload.processed_at === undefined) return false;
  if (!TRANSFERABLE.has(payload.payload_type) || !(context.config.payload_types as readonly string[]).includes(payload.payload_type)) return false;
  if (transfer.report_from !== undefined && payload.processed_at <= transfer.report_from) return false;
  return transfer.report_to === undefined || payload.processed_at <= transfer.report_to;
}

/** One page's files or records, the new cursor and the counters, all or nothing, while the lease is held. */
async function commitPage(context: RunContext, chosen: readonly PayloadItem[], lastKey: Record<string, string> | undefined, done: boolean): Promise<void> {
  const { deps, client, transferId } = context;
  const vantage = context.config.transfer_type === 'Vantage';
  const puts: TransactOperation[] = [];
  let bytes = 0;
  for (const payload of chosen) {
    const sourcePath = payload.s3_path ?? payloadObjectKey(client, payload.payload_reference);
    // The raw object is the sealed recording: its plaintext is its size less the GCM tag.
    const head = await deps.blobs.head('raw', sourcePath);
    const sourceBytes = head === undefined ? undefined : Math.max(0, head.contentLength - TAG_BYTES);
    bytes += sourceBytes ?? 0;
    const custody = {
      recorded_at: payload.payload_time ?? payload.processed_at ?? '',
      ...(payload.uploaded_at === undefined ? {} : { uploaded_at: payload.uploaded_at }),
      processed_at: payload.processed_at ?? '',
    };
    if (vantage) {
      const record: TransferRecordItem = {
        client,
        transfer_id: transferId,
        payload_reference: payload.payload_reference,
        payload_type: payload.payload_type,
        device_reference: payload.device_reference,
        ...(payload.device_user_reference === undefined ? {} : { device_user_reference: payload.device_user_reference }),
        ...(payload.group === undefined ? {} : { group: payload.group }),
        device_sha256: payload.checksum ?? '',
        source_path: sourcePath,
        ...(sourceBytes === undefined ? {} : { source_bytes: sourceBytes }),
        ...custody,
        ...(payload.second_party_numbers === undefined ? {} : { second_party_numbers: payload.second_party_numbers }),
        ...(payload.payload_duration === undefined ? {} : { payload_duration: payload.payload_duration }),
      };
      puts.push({ kind: 'put', item: transferRecordToItem(record), condition: { kind: 'item-not-exists' } });
      continue;
    }
    const file: TransferFileItem = {
      client,
      transfer_id: transferId,
      name: payload.payload_reference,
      order: '1',
      file_kind: 'Recording',
      file_state: 'Pending',
      payload_reference: payload.payload_reference,
      payload_type: payload.payload_type,
      source_path: sourcePath,
      dest_path: '',
      relative_path: '',
      checksums: { device_sha256: (payload.checksum ?? '').toLowerCase() },
      attempts: 0,
      ...(sourceBytes === undefined ? {} : { source_bytes: sourceBytes }),
      ...custody,
    };
    puts.push({ kind: 'put', item: transferFileToItem(file), condition: { kind: 'item-not-exists' } });
  }
  const update: TransactOperation = {
    kind: 'update',
    key: keys.transfer.key(client, transferId),
    update: {
      set: {
        ...(lastKey === undefined ? {} : { selection_cursor: JSON.stringify(lastKey) }),
        ...(done ? { selection_done: true } : {}),
        progress_at: deps.clock.now().toISOString(),
      },
      add: { payload_count: chosen.length, bytes_total: bytes, ...(vantage ? {} : { files_total: chosen.length }) },
    },
    condition: holdsLease(context.leaseId),
  };
  try {
    await deps.table.transactWrite([...puts, update]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new LeaseLostError('The transfer was taken over while choosing its payloads', { cause: error });
    throw error;
  }
}
