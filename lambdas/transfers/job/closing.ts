import { eachPage } from '#core/store/paging.ts';
import { readTransfer, readTransferWatermark, transferWatermarkToItem, type TransferItem } from '#core/store/entities/transfer.ts';
import { readTransferFile, transferFileToItem, type TransferFileItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import { ConditionFailedError, type TransactOperation } from '#core/ports/table-store.ts';
import type { TransferState } from '#shared/constants/account.ts';
import type { TransferFileKind } from '#shared/contract/entities/transfers.ts';
import { buildTransferManifest, manifestCsv, manifestJson, type ManifestDelivery, type ManifestSource } from '../packaging/index.ts';
import type { OutputDigest } from '../packaging/index.ts';
import { holdsLease, LeaseLostError, type RunContext } from './context.ts';
import { dueMarkerPuts } from '../../account-data/public.ts';
import { endMarkerOperation } from '../../jobs/public.ts';
import { raiseTransferEndAlert } from '../runs/transfer-end-alert.ts';

/**
 * What ending a transfer reads: the transfer and its files, never its configuration, so a transfer whose
 * configuration was deleted after it was recorded ends the same way as any other.
 */
export type TransferEnding = Pick<RunContext, 'deps' | 'client' | 'transferId' | 'leaseId'>;

/** The files a transfer closes with: its manifests (Payload) or its report (Vantage). */
export const MANIFEST_FILES = ['manifest.json', 'manifest.csv'] as const;
export const REPORT_FILES = ['report.csv', 'report.jsonl'] as const;

/**
 * Adds the closing files (Pending, counted in `files_total`) once: a repeated call finds them and adds nothing.
 * Manifests are order 9 (listed and delivered after the recordings); the report is what a Vantage transfer carries.
 */
export async function ensureClosingFiles(context: RunContext, names: readonly string[], kind: TransferFileKind): Promise<void> {
  const order = kind === 'Manifest' ? '9' : '1';
  const { deps, client, transferId } = context;
  const missing: TransferFileItem[] = [];
  for (const name of names) {
    if ((await deps.table.get(keys.transferFile.key(client, transferId, order, name), { consistent: true })) !== undefined) continue;
    missing.push({
      client,
      transfer_id: transferId,
      name,
      order,
      file_kind: kind,
      file_state: 'Pending',
      source_path: kind === 'Manifest' ? 'manifest' : 'report',
      dest_path: '',
      relative_path: '',
      checksums: {},
      attempts: 0,
    });
  }
  if (missing.length === 0) return;
  try {
    await deps.table.transactWrite([
      ...missing.map((file): TransactOperation => ({ kind: 'put', item: transferFileToItem(file), condition: { kind: 'item-not-exists' } })),
      { kind: 'update', key: keys.transfer.key(client, transferId), update: { add: { files_total: missing.length } }, condition: holdsLease(context.leaseId) },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new LeaseLostError('The transfer was taken over while adding its closing files', { cause: error });
    throw error;
  }
}

/** The transfer's delivered recordings, page by page. */
async function* deliveredRecordings(context: RunContext): AsyncGenerator<TransferFileItem> {
  for await (const page of eachPage(context.deps.table, keys.transferFile.list(context.client, context.transferId, '1'), 500)) {
    for (const item of page) {
      const file = readTransferFile(item);
      if (file.file_state === 'Delivered' && file.file_kind === 'Recording') yield file;
    }
  }
}

/**
 * The manifest of what was delivered, from the files' items: for each recording its payload, source, delivered file,
 * both SHA-256 and its chain of custody (recorded, uploaded, processed, transferred). The packaging's manifest builder
 * checks it (a recording whose plaintext did not hash to the device's checksum is refused, not listed). It holds one
 * small entry per recording (about 1 KB): the one part of the job that grows with the transfer.
 */
export async function manifestText(context: RunContext, format: 'json' | 'csv'): Promise<string> {
  const outputs: OutputDigest[] = [];
  const sources: ManifestSource[] = [];
  const deliveries: ManifestDelivery[] = [];
  for await (const file of deliveredRecordings(context)) {
    const entryName = file.entry_name ?? file.name;
    outputs.push({
      name: file.relative_path,
      size: file.size ?? 0,
      sha256: file.checksums.delivered_sha256 ?? '',
      entries: [{ name: entryName, size: file.entry_size ?? 0, sha256: file.entry_sha256 ?? '' }],
    });
    const processedAt = file.processed_at ?? '';
    sources.push({
      entryName,
      payloadReference: file.payload_reference ?? file.name,
      sourcePath: file.source_path,
      deviceSha256: file.checksums.device_sha256 ?? '',
      recordedAt: file.recorded_at ?? processedAt,
      uploadedAt: file.uploaded_at ?? processedAt,
      processedAt,
    });
    deliveries.push({ outputName: file.relative_path, destPath: file.dest_path, transferredAt: file.delivered_at ?? '' });
  }
  const manifest = buildTransferManifest({
    transferId: context.transferId,
    transferConfigReference: context.config.transfer_config_reference,
    format: context.config.transfer_file_format,
    ...(context.pgpFingerprint === undefined ? {} : { pgpFingerprint: context.pgpFingerprint }),
    generatedAt: context.deps.clock.now(),
    outputs,
    sources,
    deliveries,
  });
  return format === 'json' ? manifestJson(manifest) : manifestCsv(manifest);
}

/** The first failed file's reason, for the transfer's `error_message`. */
async function firstFailure(context: TransferEnding): Promise<string | undefined> {
  for await (const page of eachPage(context.deps.table, keys.transferFile.list(context.client, context.transferId), 500)) {
    for (const item of page) {
      const file = readTransferFile(item);
      if (file.file_state === 'Failed') return `${file.name}: ${file.last_error ?? 'failed'}`;
    }
  }
  return undefined;
}

/**
 * Ends the transfer: Succeeded when every file arrived, PartialFail when some did, Failed when none did (or `fatal`
 * says why nothing could be delivered). A PartialFail or Failed transfer raises a TransferAlert first (Scoped on the
 * transfer, so finishing twice after a crash makes one alert); then the state, `completed_at`, `error_message`, the
 * removal of its running-job marker and, for a Succeeded one, the configuration's watermark are written in one
 * transaction while the lease is held.
 */
export async function finishTransfer(context: TransferEnding, fatal?: string): Promise<TransferState> {
  const { deps, client, transferId } = context;
  const stored = await deps.table.get(keys.transfer.key(client, transferId), { consistent: true });
  if (stored === undefined) throw new LeaseLostError('The transfer is gone');
  const transfer = readTransfer(stored);
  const done = transfer.files_done ?? 0;
  const failed = transfer.files_failed ?? 0;
  const total = transfer.files_total ?? 0;
  const state: TransferState = fatal !== undefined ? 'Failed' : failed === 0 ? 'Succeeded' : done > 0 ? 'PartialFail' : 'Failed';
  const firstProblem = fatal ?? (failed > 0 ? await firstFailure(context) : undefined);
  const errorMessage =
    state === 'Succeeded' ? undefined : fatal !== undefined ? fatal : `${failed} of ${total} files could not be delivered (${firstProblem ?? 'see the files'})`;

  if (state !== 'Succeeded') {
    await raiseTransferEndAlert(deps, transfer, state, errorMessage ?? state);
  }
  const now = deps.clock.now().toISOString();
  const operations: TransactOperation[] = [
    {
      kind: 'update',
      key: keys.transfer.key(client, transferId),
      update: {
        set: { transfer_state: state, completed_at: now, progress_at: now, ...(errorMessage === undefined ? {} : { error_message: errorMessage.slice(0, 2000) }) },
        remove: ['lease_id', 'lease_until', ...(errorMessage === undefined ? ['error_message'] : [])],
      },
      condition: holdsLease(context.leaseId),
    },
  ];
  // The finished run is a retained record counted from its finish: its retention due marker in the same transaction.
  operations.push(...dueMarkerPuts(client, { ...stored, transfer_state: state, completed_at: now }));
  // The job has ended: its running-job marker goes with the end, so the job-sweep never resumes a finished transfer.
  operations.push(endMarkerOperation(client, 'transfer', transferId));
  if (state === 'Succeeded') operations.push(...(await watermarkOperations(context, transfer)));
  try {
    await deps.table.transactWrite(operations);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new LeaseLostError('The transfer was taken over while it was being finished', { cause: error });
    throw error;
  }
  return state;
}

/** Moves the configuration's watermark to this transfer's `report_to`, unless a later one is already there. */
async function watermarkOperations(context: TransferEnding, transfer: TransferItem): Promise<TransactOperation[]> {
  if (transfer.report_to === undefined) return [];
  const { deps, client } = context;
  const key = keys.transferWatermark.key(client, transfer.transfer_config_reference);
  const stored = await deps.table.get(key, { consistent: true });
  const current = stored === undefined ? undefined : readTransferWatermark(stored);
  if (current !== undefined && current.report_to >= transfer.report_to) return [];
  return [
    {
      kind: 'put',
      item: transferWatermarkToItem({ client, transfer_config_reference: transfer.transfer_config_reference, report_to: transfer.report_to, transfer_id: transfer.transfer_id }),
      condition:
        current === undefined
          ? { kind: 'item-not-exists' }
          : { kind: 'expression', expression: '#to = :to', names: { '#to': 'report_to' }, values: { ':to': current.report_to } },
    },
  ];
}
