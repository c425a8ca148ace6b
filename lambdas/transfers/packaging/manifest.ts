import {
  TRANSFER_MANIFEST_COLUMNS,
  TransferManifest,
  type TransferManifestDelivery,
  type TransferManifestFile,
} from '#shared/contract/entities/transfer-manifest.ts';
import type { TransferFileFormat } from '#shared/constants/account.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { PackagingError } from './errors.ts';
import type { OutputDigest } from './types.ts';

/** What the caller knows of one recording: where it came from and its chain of custody. */
export interface ManifestSource {
  /** The name it was packaged under (`PackagingEntry.name`). */
  entryName: string;
  payloadReference: string;
  sourcePath: string;
  /** The payload's checksum: SHA-256 of the plaintext as the device sealed it. */
  deviceSha256: string;
  recordedAt: string;
  uploadedAt: string;
  processedAt: string;
}

/** Where one packaged output was delivered, and when its upload completed. */
export interface ManifestDelivery {
  outputName: string;
  destPath: string;
  transferredAt: string;
}

export interface ManifestInput {
  transferId: string;
  transferConfigReference: string;
  format: TransferFileFormat;
  pgpFingerprint?: string;
  generatedAt: Date;
  /** The packaged outputs' digests, as the packager settled them. */
  outputs: readonly OutputDigest[];
  sources: readonly ManifestSource[];
  deliveries: readonly ManifestDelivery[];
}

/**
 * Joins what was packaged with what the caller knows into the manifest, and refuses (PackagingError, one line per
 * problem) anything a receiver could not verify: a recording whose bytes read during packaging do not hash to the
 * device's checksum, a packaged entry with no source or a source never packaged, an output never delivered. Nothing
 * is left out quietly: a manifest that is written is complete and checked against the contract's schema.
 */
export function buildTransferManifest(input: ManifestInput): TransferManifest {
  const problems: string[] = [];
  const sources = new Map(input.sources.map((source) => [source.entryName, source]));
  const deliveriesByOutput = new Map(input.deliveries.map((delivery) => [delivery.outputName, delivery]));
  const zipped = input.format !== 'Uncompressed';
  const deliveries: TransferManifestDelivery[] = [];
  const files: TransferManifestFile[] = [];
  const packaged = new Set<string>();

  for (const output of input.outputs) {
    const delivery = deliveriesByOutput.get(output.name);
    if (delivery === undefined) {
      problems.push(`deliveries: ${JSON.stringify(output.name)} was packaged but has no delivery`);
      continue;
    }
    deliveries.push({ name: output.name, dest_path: delivery.destPath, size: output.size, sha256: output.sha256, transferred_at: delivery.transferredAt });
    for (const entry of output.entries) {
      packaged.add(entry.name);
      const source = sources.get(entry.name);
      if (source === undefined) {
        problems.push(`sources: ${JSON.stringify(entry.name)} was packaged but has no source`);
        continue;
      }
      if (source.deviceSha256.toLowerCase() !== entry.sha256) {
        problems.push(`sources: ${JSON.stringify(entry.name)} read as SHA-256 ${entry.sha256}, but the device sealed ${source.deviceSha256.toLowerCase()}`);
        continue;
      }
      files.push({
        payload_reference: source.payloadReference,
        source_path: source.sourcePath,
        dest_path: delivery.destPath,
        ...(zipped ? { archive_path: entry.name } : {}),
        size: entry.size,
        delivered_sha256: output.sha256,
        plaintext_sha256: entry.sha256,
        recorded_at: source.recordedAt,
        uploaded_at: source.uploadedAt,
        processed_at: source.processedAt,
        transferred_at: delivery.transferredAt,
      });
    }
  }
  for (const source of input.sources) {
    if (!packaged.has(source.entryName)) problems.push(`sources: ${JSON.stringify(source.entryName)} was never packaged`);
  }
  if (problems.length > 0) throw new PackagingError(problems);

  const parsed = TransferManifest.safeParse({
    manifest_version: 1,
    transfer_id: input.transferId,
    transfer_config_reference: input.transferConfigReference,
    transfer_file_format: input.format,
    ...(input.pgpFingerprint === undefined ? {} : { pgp_fingerprint: input.pgpFingerprint }),
    generated_at: input.generatedAt.toISOString(),
    deliveries,
    files,
  });
  if (!parsed.success) throw new PackagingError(formatIssues(parsed.error, 'manifest'));
  return parsed.data;
}

/** The manifest as JSON text (two-space indented, newline-terminated). */
export const manifestJson = (manifest: TransferManifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

/**
 * The manifest's files as CSV (RFC 4180): a header of the contract's column names, CRLF line ends, and any field
 * holding a comma, quote, CR or LF wrapped in quotes with its quotes doubled. Values are written as they are (no
 * spreadsheet-formula escaping), because a receiver compares them byte for byte.
 */
export function manifestCsv(manifest: TransferManifest): string {
  const rows = [
    TRANSFER_MANIFEST_COLUMNS.map(csvField),
    ...manifest.files.map((file) => TRANSFER_MANIFEST_COLUMNS.map((column) => csvField(String(file[column] ?? '')))),
  ];
  return rows.map((row) => `${row.join(',')}\r\n`).join('');
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
