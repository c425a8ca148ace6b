import { eachPage } from '#core/store/paging.ts';
import { readTransferRecord, type TransferFileItem, type TransferRecordItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import { packageTransfer, type PackagingOptions } from '../packaging/index.ts';
import type { RunContext } from './context.ts';
import type { PreparedFile } from './deliver-file.ts';
import { openRecording } from './recording-source.ts';

/** The configuration's packaging: its format, its zip password (unsealed for this invocation) and its PGP key. */
export function packagingOptions(context: RunContext, archiveName?: string): PackagingOptions {
  const { config } = context;
  return {
    format: config.transfer_file_format,
    ...(context.zipPassword === undefined ? {} : { zipPassword: context.zipPassword }),
    ...(config.pgp_key === undefined ? {} : { pgpPublicKey: config.pgp_key }),
    ...(archiveName === undefined ? {} : { archiveName }),
  };
}

/** The name a packaged file is delivered under: the entry itself (Uncompressed) or its archive, `.pgp` when encrypted. */
function outputNameOf(context: RunContext, entryName: string, archiveName: string): string {
  const plain = context.config.transfer_file_format === 'Uncompressed' ? entryName : archiveName;
  return context.config.pgp_key === undefined ? plain : `${plain}.pgp`;
}

/**
 * One recording as one delivered file: `<payload reference>.<ext>` (Uncompressed) or `<payload reference>.zip`
 * holding it, each optionally PGP-encrypted. One file per recording, never one archive per run, so a run of thousands
 * resumes, retries and reports file by file.
 */
export async function prepareRecording(context: RunContext, file: TransferFileItem): Promise<PreparedFile> {
  const recording = await openRecording(context, file);
  const entryName = `${file.name}.${recording.extension}`;
  const archiveName = `${file.name}.zip`;
  const packaging = await packageTransfer(
    [
      {
        name: entryName,
        ...(file.source_bytes === undefined ? {} : { size: file.source_bytes }),
        modifiedAt: new Date(file.recorded_at ?? file.processed_at ?? Date.now()),
        open: () => recording.body,
      },
    ],
    packagingOptions(context, archiveName),
  );
  return { packaging, entryName, outputName: outputNameOf(context, entryName, archiveName) };
}

/** A file whose bytes are made here (a manifest, a report): packaged like the recordings, or only encrypted. */
export async function prepareGenerated(
  context: RunContext,
  entryName: string,
  body: () => AsyncIterable<Uint8Array>,
  options: { zipLikeRecordings: boolean },
): Promise<PreparedFile> {
  const archiveName = `${entryName}.zip`;
  const packagingOptionsUsed: PackagingOptions = options.zipLikeRecordings
    ? packagingOptions(context, archiveName)
    : { format: 'Uncompressed', ...(context.config.pgp_key === undefined ? {} : { pgpPublicKey: context.config.pgp_key }) };
  const packaging = await packageTransfer([{ name: entryName, modifiedAt: context.deps.clock.now(), open: body }], packagingOptionsUsed);
  const plain = packagingOptionsUsed.format === 'Uncompressed' ? entryName : archiveName;
  return { packaging, entryName, outputName: context.config.pgp_key === undefined ? plain : `${plain}.pgp` };
}

/** The Vantage report's columns, in order (CSV header; the JSON lines carry the same names). */
export const VANTAGE_REPORT_COLUMNS = [
  'payload_reference',
  'payload_type',
  'device_reference',
  'device_user_reference',
  'group',
  'recorded_at',
  'uploaded_at',
  'processed_at',
  'payload_duration',
  'second_party_numbers',
  'device_sha256',
  'source_path',
  'source_bytes',
] as const;

/** The report's records, page by page from the transfer's partition: constant memory whatever their number. */
async function* records(context: RunContext): AsyncGenerator<TransferRecordItem> {
  for await (const page of eachPage(context.deps.table, keys.transferRecord.list(context.client, context.transferId), 200)) {
    for (const item of page) yield readTransferRecord(item);
  }
}

const csvField = (value: unknown) => {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The Vantage report as RFC 4180 CSV: a header, then one row per record. */
export async function* reportCsv(context: RunContext): AsyncGenerator<Uint8Array> {
  yield Buffer.from(`${VANTAGE_REPORT_COLUMNS.join(',')}\r\n`);
  for await (const record of records(context)) {
    yield Buffer.from(`${VANTAGE_REPORT_COLUMNS.map((column) => csvField(record[column])).join(',')}\r\n`);
  }
}

/** The Vantage report as JSON lines: one object per record, typed values (numbers stay numbers). */
export async function* reportJsonLines(context: RunContext): AsyncGenerator<Uint8Array> {
  for await (const record of records(context)) {
    const line = Object.fromEntries(VANTAGE_REPORT_COLUMNS.filter((column) => record[column] !== undefined).map((column) => [column, record[column]]));
    yield Buffer.from(`${JSON.stringify(line)}\n`);
  }
}
