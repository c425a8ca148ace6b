import * as z from 'zod';
import { TransferFileFormat } from '../../constants/account.ts';
import { DateTimeIso, PayloadReference, Sha256Hex, TransferConfigReference } from '../fields.ts';

/**
 * The manifest delivered with every transfer (DESIGN.md §8): for each recording, where it came from, where it went,
 * the SHA-256 of the bytes delivered and of the plaintext as the device sealed it, and its chain of custody. A
 * receiver verifies a delivery with `sha256sum` and these values alone, without trusting us.
 */

/** An upper-case hex PGP fingerprint (40 digits for v4 keys, 64 for v6), as `gpg --fingerprint` shows it without spaces. */
export const PgpFingerprint = z.string().regex(/^(?:[0-9A-F]{40}|[0-9A-F]{64})$/, { error: 'Must be an upper-case hex PGP fingerprint' });
export type PgpFingerprint = z.infer<typeof PgpFingerprint>;

/** One file as delivered: a zip archive, a recording (Uncompressed), either optionally PGP-encrypted. */
export const TransferManifestDelivery = z.strictObject({
  /** The delivered file's name, e.g. `transfer.zip.pgp`. */
  name: z.string().min(1),
  /** Where it was written: `s3://bucket/key` or the SFTP path. */
  dest_path: z.string().min(1),
  /** Bytes delivered. */
  size: z.int().min(0),
  /** SHA-256 of the bytes delivered (what `sha256sum` of the received file prints). */
  sha256: Sha256Hex,
  transferred_at: DateTimeIso,
});
export type TransferManifestDelivery = z.infer<typeof TransferManifestDelivery>;

/** One recording in a delivery. Field order is the CSV's column order. */
export const TransferManifestFile = z.strictObject({
  payload_reference: PayloadReference,
  /** Where the recording was read from (the processed object's key). */
  source_path: z.string().min(1),
  /** The delivered file that holds it (see `deliveries`). */
  dest_path: z.string().min(1),
  /** Its path inside the zip archive; absent when delivered Uncompressed. */
  archive_path: z.string().min(1).optional(),
  /** Plaintext bytes. */
  size: z.int().min(0),
  /** SHA-256 of the delivered file that holds it. */
  delivered_sha256: Sha256Hex,
  /** SHA-256 of the plaintext as the device sealed it; packaging checked the bytes it read against it. */
  plaintext_sha256: Sha256Hex,
  recorded_at: DateTimeIso,
  uploaded_at: DateTimeIso,
  processed_at: DateTimeIso,
  transferred_at: DateTimeIso,
});
export type TransferManifestFile = z.infer<typeof TransferManifestFile>;

/** The CSV manifest's columns, in order: the file fields above. */
export const TRANSFER_MANIFEST_COLUMNS = Object.keys(TransferManifestFile.shape) as readonly (keyof TransferManifestFile)[];

export const TransferManifest = z.strictObject({
  manifest_version: z.literal(1),
  transfer_id: z.string().min(1),
  transfer_config_reference: TransferConfigReference,
  transfer_file_format: TransferFileFormat,
  /** The public key the deliveries were encrypted to; absent when they were not PGP-encrypted. */
  pgp_fingerprint: PgpFingerprint.optional(),
  generated_at: DateTimeIso,
  deliveries: z.array(TransferManifestDelivery),
  files: z.array(TransferManifestFile),
});
export type TransferManifest = z.infer<typeof TransferManifest>;
