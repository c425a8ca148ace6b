import { setTimeout as sleep } from 'node:timers/promises';
import { ulid } from 'ulid';
import { payloadAuditToItem } from '#core/store/entities/payload-audit.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { readTransferFile, transferFileToItem, type TransferFileItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import { ConditionFailedError, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { TRANSFER_CHECKSUM } from '#shared/contract/entities/transfers.ts';
import { payloadDueMarkerItems } from '../../account-data/public.ts';
import { PayloadCryptoError } from '../../device-crypto/public.ts';
import { DeliveryError, type DeliveredFile } from '../delivery/index.ts';
import { PackagingError, type OutputDigest, type PackagedOutput, type Packaging } from '../packaging/index.ts';
import { DestinationUnavailableError, LeaseLostError, type RunContext } from './context.ts';
import type { FileWrite } from './file-writes.ts';
import { RecordingUnavailableError } from './recording-source.ts';

/** Who the payload audit names for a transfer: the job (docs/decisions.md, "Who a record names"). */
export const TRANSFER_ACTOR = 'job:transfer';

/** One attempt's work: package the file and name where it goes; `deliver` then writes it. */
export interface PreparedFile {
  /** The package (one output) to write. */
  packaging: Packaging;
  /** The delivered file's name as the package names it (`<name>.zip.pgp`, …). */
  outputName: string;
  /** The entry inside it, for the manifest. */
  entryName: string;
}

export type Prepare = (file: TransferFileItem) => Promise<PreparedFile>;

/**
 * Delivers one file with retries: each attempt is counted on the file's item BEFORE it is made (so a crash mid-file
 * still counts it), a retryable failure waits `backoffMs · 2^(n-1)` (capped) and tries again, a failure that cannot
 * get better (the recording does not verify, the destination refuses for good) or the last allowed attempt fails the
 * file. A delivered file is recorded in ONE transaction with the transfer's progress and, for a recording, the
 * payload's `transferred_at` and its audit record (with other files' writes of the same moment: ./file-writes.ts): if
 * that cannot be written, the file is not counted delivered, and the next attempt finds its staged arrival and records
 * it, or (nothing staged) writes the recording again under a new name, never over the old one.
 */
export async function deliverFile(context: RunContext, start: TransferFileItem, prepare: Prepare): Promise<TransferFileItem> {
  let file = start;
  for (;;) {
    file = await countAttempt(context, file);
    // Settled already: a write that answered with an error had been made after all. Nothing is sent again.
    if (file.file_state !== 'Pending') return file;
    if (file.attempts > context.limits.maxAttempts) return settleFailed(context, file, file.last_error ?? 'No attempts left');
    try {
      return await attempt(context, file, prepare);
    } catch (error) {
      if (error instanceof LeaseLostError || error instanceof DestinationUnavailableError) throw error;
      const reason = reasonOf(error);
      context.deps.logger.warn('transfer file attempt failed', { client: context.client, transfer_id: context.transferId, file: file.name, attempt: file.attempts, reason });
      if (!retryable(error) || file.attempts >= context.limits.maxAttempts) return settleFailed(context, file, reason);
      file = await noteError(context, file, reason);
      const delay = Math.min(context.limits.backoffMs * 2 ** (file.attempts - 1), context.limits.maxBackoffMs);
      // A wait past the budget is left to the next invocation: the file stays Pending with its attempts counted.
      if (performance.now() + delay >= context.deadline) return file;
      await sleep(delay);
    }
  }
}

async function attempt(context: RunContext, file: TransferFileItem, prepare: Prepare): Promise<TransferFileItem> {
  const destination = await context.destination();
  const completed = await completeStaged(context, file);
  if (completed !== undefined) return completed;
  const prepared = await prepare(file);
  const [output] = await firstOutput(prepared.packaging);
  let relativePath = `${context.transferId}/${prepared.outputName}`;
  const arrivals = [...(file.unrecorded_arrivals ?? [])];
  let delivered: DeliveredFile;
  let digest: OutputDigest;
  try {
    // A file already under the name without a record of it: an earlier attempt arrived but could not be recorded. It
    // is never replaced (a receiver may have taken it): this attempt goes under a folder of its own, the item says so.
    while ((await destination.exists(relativePath)) !== undefined) {
      arrivals.push(relativePath);
      relativePath = `${context.transferId}/again-${file.attempts}-${arrivals.length}/${prepared.outputName}`;
    }
    const target = relativePath;
    delivered = await destination.put(target, output.stream, {
      // Every byte is sent: checked against the device's checksum, then staged on the item before the file appears.
      beforeCommit: async (sent) => {
        const packaged = await output.digest;
        const entry = entryOf(packaged, prepared.entryName);
        checkDeviceChecksum(file, prepared.entryName, entry);
        await stage(context, file, {
          relative_path: target,
          bytes: sent.bytes,
          sha256: sent.sha256,
          entry_name: prepared.entryName,
          ...(entry === undefined ? {} : { entry_size: entry.size, entry_sha256: entry.sha256 }),
        });
      },
    });
    digest = await output.digest;
  } catch (error) {
    // Whatever stopped the attempt, the recording's stream (and the sealed object under it) is closed.
    await output.stream.cancel(error).catch(() => undefined);
    throw error;
  }
  if (delivered.sha256 !== digest.sha256 || delivered.bytes !== digest.size) {
    throw new DeliveryError(`${relativePath}: arrived as ${delivered.bytes} bytes with SHA-256 ${delivered.sha256}, but ${digest.size} bytes with SHA-256 ${digest.sha256} were sent`, {
      retryable: true,
    });
  }
  const entry = entryOf(digest, prepared.entryName);
  checkDeviceChecksum(file, prepared.entryName, entry);
  return recordDelivered(context, file, {
    relativePath,
    arrivals,
    delivered,
    entryName: prepared.entryName,
    entrySize: entry?.size,
    entrySha256: entry?.sha256,
  });
}

function entryOf(digest: OutputDigest, entryName: string) {
  return digest.entries.find((candidate) => candidate.name === entryName) ?? digest.entries[0];
}

/** A recording whose plaintext did not hash to what the device sealed is never delivered as it. */
function checkDeviceChecksum(file: TransferFileItem, entryName: string, entry: { sha256: string } | undefined): void {
  const deviceSha256 = file.checksums[TRANSFER_CHECKSUM.device];
  if (deviceSha256 !== undefined && entry !== undefined && entry.sha256 !== deviceSha256) {
    throw new RecordingUnavailableError(`${entryName}: read as SHA-256 ${entry.sha256}, but the device sealed ${deviceSha256}`);
  }
}

type Staged = NonNullable<TransferFileItem['staged']>;

/** Notes on the file's item, while the lease is held, what is about to appear at the receiver. */
async function stage(context: RunContext, file: TransferFileItem, staged: Staged): Promise<void> {
  await writeOrLoseLease(context, {
    operations: [{ kind: 'update', key: keys.transferFile.key(context.client, context.transferId, file.order, file.name), update: { set: { staged } }, condition: FILE_IS_PENDING }],
  });
}

/**
 * An earlier attempt staged this file and its invocation died before recording it: if the staged file is at the
 * receiver with the staged size, it arrived (the rename came after the staging, and nothing else writes under the
 * transfer's folder), so it is recorded as delivered from what was staged instead of being sent again. Otherwise
 * (killed before the rename) the attempt goes on as any: its temporary file is written over and renamed.
 */
async function completeStaged(context: RunContext, file: TransferFileItem): Promise<TransferFileItem | undefined> {
  const { staged } = file;
  if (staged === undefined) return undefined;
  const destination = await context.destination();
  const there = await destination.exists(staged.relative_path);
  if (there?.bytes !== staged.bytes) return undefined;
  context.deps.logger.info('transfer file found arrived from an earlier attempt: recorded, not sent again', {
    client: context.client,
    transfer_id: context.transferId,
    file: file.name,
  });
  return recordDelivered(context, file, {
    relativePath: staged.relative_path,
    arrivals: [...(file.unrecorded_arrivals ?? [])],
    delivered: { path: staged.relative_path, bytes: staged.bytes, sha256: staged.sha256 },
    entryName: staged.entry_name,
    entrySize: staged.entry_size,
    entrySha256: staged.entry_sha256,
  });
}

async function firstOutput(packaging: Packaging): Promise<[PackagedOutput]> {
  for await (const output of packaging.outputs) return [output];
  throw new PackagingError(['outputs: the package holds no file']);
}

interface Arrival {
  relativePath: string;
  arrivals: string[];
  delivered: DeliveredFile;
  entryName: string;
  entrySize: number | undefined;
  entrySha256: string | undefined;
}

/** The file's location as a receiver reads it: `s3://bucket/prefix/<path>` or `<root directory>/<path>`. */
export function destPathOf(context: RunContext, relativePath: string): string {
  const params = context.config.params as { destination?: string; root_directory?: string };
  const base = (params.destination ?? params.root_directory ?? '').replace(/\/+$/, '');
  return `${base}/${relativePath}`;
}

/** A file is settled once: only from Pending. */
const FILE_IS_PENDING: WriteCondition = {
  kind: 'expression',
  expression: '#state = :pending',
  names: { '#state': 'file_state' },
  values: { ':pending': 'Pending' },
};

async function recordDelivered(context: RunContext, file: TransferFileItem, arrival: Arrival): Promise<TransferFileItem> {
  const { deps, client } = context;
  const now = deps.clock.now().toISOString();
  const settled: TransferFileItem = {
    ...file,
    file_state: 'Delivered',
    relative_path: arrival.relativePath,
    dest_path: destPathOf(context, arrival.relativePath),
    size: arrival.delivered.bytes,
    checksums: { ...file.checksums, [TRANSFER_CHECKSUM.delivered]: arrival.delivered.sha256 },
    delivered_at: now,
    entry_name: arrival.entryName,
    ...(arrival.entrySize === undefined ? {} : { entry_size: arrival.entrySize }),
    ...(arrival.entrySha256 === undefined ? {} : { entry_sha256: arrival.entrySha256 }),
    ...(arrival.arrivals.length === 0 ? {} : { unrecorded_arrivals: arrival.arrivals }),
  };
  delete settled.last_error;
  delete settled.staged;
  const operations: TransactOperation[] = [{ kind: 'put', item: transferFileToItem(settled), condition: FILE_IS_PENDING }];
  if (file.file_kind === 'Recording' && file.payload_reference !== undefined) {
    operations.push(
      {
        kind: 'update',
        key: keys.payload.key(client, file.payload_reference),
        update: { set: { transferred_at: now } },
        condition: { kind: 'item-exists' },
      },
      {
        kind: 'put',
        item: payloadAuditToItem(client, { payload_reference: file.payload_reference, action: 'transfer', portal_user: TRANSFER_ACTOR, time: now }, ulid()),
        condition: { kind: 'item-not-exists' },
      },
      // A policy may count from the transfer: the recording's due marker for that time is written with it.
      ...payloadDueMarkerItems(
        client,
        { payload_reference: file.payload_reference, payload_type: file.payload_type, payload_state: 'Processed', transferred_at: now },
        ['transferred_at'],
      ).map((marker) => ({ kind: 'put' as const, item: marker })),
    );
  }
  await writeOrLoseLease(context, { operations, progress: { add: { files_done: 1, bytes_done: file.source_bytes ?? 0 }, at: now } });
  context.filesHandled += 1;
  return settled;
}

async function settleFailed(context: RunContext, file: TransferFileItem, reason: string): Promise<TransferFileItem> {
  const now = context.deps.clock.now().toISOString();
  const failed: TransferFileItem = { ...file, file_state: 'Failed', last_error: reason.slice(0, 1000) };
  await writeOrLoseLease(context, { operations: [{ kind: 'put', item: transferFileToItem(failed), condition: FILE_IS_PENDING }], progress: { add: { files_failed: 1 }, at: now } });
  context.filesHandled += 1;
  return failed;
}

/**
 * Counts the attempt about to be made, on the file's item, while the lease is held. Only a Pending file is counted:
 * one already settled is read and answered as it is, not attempted. `file` is the item as stored (read in this
 * invocation, which alone writes it while it holds the lease; after a failed attempt, as noteError read it back).
 */
async function countAttempt(context: RunContext, file: TransferFileItem): Promise<TransferFileItem> {
  const key = keys.transferFile.key(context.client, context.transferId, file.order, file.name);
  try {
    await writeOrLoseLease(context, { operations: [{ kind: 'update', key, update: { add: { attempts: 1 } }, condition: FILE_IS_PENDING }] });
    return { ...file, attempts: file.attempts + 1 };
  } catch (error) {
    // The lease is held (else LeaseLostError): the file was settled meanwhile, or is gone; the read tells which.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  const stored = await context.deps.table.get(key, { consistent: true });
  if (stored === undefined) throw new LeaseLostError(`The file ${file.name} of the transfer is gone`);
  return readTransferFile(stored);
}

/** Notes the failed attempt's reason; answers the file's item as stored (with what the attempt staged, if it did). */
async function noteError(context: RunContext, file: TransferFileItem, reason: string): Promise<TransferFileItem> {
  const key = keys.transferFile.key(context.client, context.transferId, file.order, file.name);
  const stored = await context.deps.table.update(key, { set: { last_error: reason.slice(0, 1000) } }, { condition: { kind: 'item-exists' } });
  return stored === undefined ? { ...file, last_error: reason.slice(0, 1000) } : readTransferFile(stored);
}

/** Writes one file's bookkeeping (with the lease checked); a failed condition with the lease gone is a lost lease. */
async function writeOrLoseLease(context: RunContext, write: FileWrite): Promise<void> {
  try {
    await context.writeFile(write);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const transfer = await context.deps.table.get(keys.transfer.key(context.client, context.transferId), { consistent: true });
    if ((transfer === undefined ? undefined : readTransfer(transfer).lease_id) !== context.leaseId) throw new LeaseLostError('The transfer was taken over by another invocation', { cause: error });
    throw error;
  }
}

/** Whether another attempt may succeed: the destination says so, or the failure was not about the file itself. */
function retryable(error: unknown): boolean {
  if (error instanceof DeliveryError) return error.retryable;
  if (error instanceof RecordingUnavailableError || error instanceof PayloadCryptoError || error instanceof PackagingError) return false;
  return true;
}

function reasonOf(error: unknown): string {
  if (error instanceof PackagingError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
