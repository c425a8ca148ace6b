import type { Dependencies } from '#core/dependencies.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { listPage, notDeletedByRetention, type QueryOf } from '#core/store/paging.ts';
import { isoOf } from '#core/store/time-range.ts';
import { readTransfer, toTransferable, type TransferItem } from '#core/store/entities/transfer.ts';
import { readTransferFile, toTransferFile, type TransferFileItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import type { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { ValidationError } from '#core/errors.ts';

export const TRANSFER_NOT_FOUND = 'Transfer not found';
export const GROUP_LIMITED_READ =
  'Transfers carry the payloads of every group: a role limited to some groups cannot read them';
/** How many files `GET transfers/{transfer_id}` carries: the first page; the rest come from its files endpoint. */
export const FIRST_FILES_PAGE = 100;

/** Transfers name recordings of every group, so a group-limited role reads none (files keep the caller's types). */
function requireWholeTenantReader(reader: Pick<TenantCaller, 'groupScope'>): void {
  if (!reader.groupScope().unrestricted) throw new ForbiddenError(GROUP_LIMITED_READ);
}

/** The payload types the reader may see; undefined where no permissions were resolved (every type). */
const payloadTypesOf = (reader: TenantCaller) => reader.access?.payloadTypes;

/** The sort-key range of transfers created between `from` and `to` (ULIDs start with their creation time). */
function createdRange(from: string | undefined, to: string | undefined): [string, string] | undefined {
  if (from === undefined && to === undefined) return undefined;
  const lower = from === undefined ? 0 : Date.parse(isoOf(from, 'start'));
  const upper = to === undefined ? 281474976710655 : Date.parse(isoOf(to, 'end'));
  if (lower > upper) throw new ValidationError(['query.from: Must not be after to']);
  return keys.transfer.createdBetween(lower, upper);
}

/** `GET transfers`: newest first, by creation time range, state and configuration. */
export function listTransfers(reader: TenantCaller, query: QueryOf<typeof transferEndpoints, 'client.transfers.list'>) {
  requireWholeTenantReader(reader);
  const { deps, tenant: client } = reader;
  const range = createdRange(query.from, query.to);
  const { transfer_state: state, transfer_config_reference: config } = query;
  return listPage(deps, {
    client,
    query: { ...keys.transfer.list(client), descending: true, ...(range === undefined ? {} : { sort: { between: range } }) },
    filters: { transfer_state: state, transfer_config_reference: config },
    page: query,
    // A run the retention job deleted or destroyed leaves the list.
    keep: (items) =>
      items.filter((item) => {
        if (!notDeletedByRetention(item)) return false;
        const transfer = readTransfer(item);
        return (state === undefined || transfer.transfer_state === state) && (config === undefined || transfer.transfer_config_reference === config);
      }),
    toData: (item) => toTransferable(readTransfer(item)),
  });
}

/** The stored transfer of this tenant, or a 404 (another tenant's id reads the caller's own partition: nothing). */
export async function loadTransfer(deps: Pick<Dependencies, 'table'>, client: string, transferId: string): Promise<TransferItem> {
  const item = await deps.table.get(keys.transfer.key(client, transferId), { consistent: true });
  if (item === undefined) throw new NotFoundError(TRANSFER_NOT_FOUND);
  return readTransfer(item);
}

/** Keeps the files the reader may see: recordings of their payload types, and every report and manifest. */
function fileFilter(reader: TenantCaller) {
  const payloadTypes = payloadTypesOf(reader);
  const types = payloadTypes === undefined ? undefined : new Set<string>(payloadTypes);
  return (file: TransferFileItem) => types === undefined || file.payload_type === undefined || types.has(file.payload_type);
}

/** `GET transfers/{id}`: the transfer with its progress and the first page of its files. */
export async function getTransfer(reader: TenantCaller, transferId: string): Promise<Transferable> {
  requireWholeTenantReader(reader);
  const { deps, tenant: client } = reader;
  const transfer = await loadTransfer(deps, client, transferId);
  const keep = fileFilter(reader);
  const page = await deps.table.query({ ...keys.transferFile.list(client, transferId), limit: FIRST_FILES_PAGE });
  const files = page.items.map(readTransferFile).filter(keep).map(toTransferFile);
  return { ...toTransferable(transfer), transfers: files };
}

/** `GET transfers/{id}/files`: the transfer's files in delivery order, page by page, optionally of one state. */
export async function listTransferFiles(reader: TenantCaller, transferId: string, query: QueryOf<typeof transferEndpoints, 'client.transfers.files'>) {
  requireWholeTenantReader(reader);
  const { deps, tenant: client } = reader;
  await loadTransfer(deps, client, transferId);
  const keepType = fileFilter(reader);
  const state = query.file_state;
  return listPage(deps, {
    client,
    query: keys.transferFile.list(client, transferId),
    filters: { file_state: state, types: payloadTypesOf(reader)?.join(',') },
    page: query,
    keep: (items) =>
      items.filter((item) => {
        const file = readTransferFile(item);
        return keepType(file) && (state === undefined || file.file_state === state);
      }),
    toData: (item) => toTransferFile(readTransferFile(item)),
  });
}
