import * as z from 'zod';
import { MigrationErrorType, MigrationSuccessType, MigrationWarningType } from '../../constants/account.ts';
import { Sha256Hex, text } from '../fields.ts';
import { LegacyMigration } from './account-data.ts';
import { Timestamp } from './common.ts';

/**
 * Legacy-platform migration: what a submission returns and the result of every row of an imported export
 * (docs/decisions.md "Legacy migration"). The migration itself is `LegacyMigration` (./account-data.ts).
 */

/** How a row's result counts: a success, a warning (imported with a remark, or deliberately left out) or an error. */
export const MIGRATION_RESULT_KINDS = ['success', 'warning', 'error'] as const;
export const MigrationResultKind = z.enum(MIGRATION_RESULT_KINDS);
export type MigrationResultKind = z.infer<typeof MigrationResultKind>;

/** Any result type of spec point 4 (errors, warnings and successes). */
export const MigrationResultType = z.union([MigrationErrorType, MigrationWarningType, MigrationSuccessType]);
export type MigrationResultType = z.infer<typeof MigrationResultType>;

/** What a row's result is about. A row the file format could not read has no entity. */
export const MIGRATION_RESULT_ENTITIES = ['Device', 'DeviceUser', 'Group', 'Payload'] as const;
export const MigrationResultEntity = z.enum(MIGRATION_RESULT_ENTITIES);
export type MigrationResultEntity = z.infer<typeof MigrationResultEntity>;

/** One result of one row of the export (a row may give several, e.g. its group added and its user created). */
export const MigrationResult = z.object({
  migration_reference: z.string(),
  /** The row's number in the file, counted from 1 (the format's header is not a row). */
  row: z.int().min(1),
  kind: MigrationResultKind,
  type: MigrationResultType,
  entity: MigrationResultEntity.optional(),
  /** The legacy reference of the device, device user, group or payload the row names. */
  reference: z.string().optional(),
  message: z.string().optional(),
  /** True when this row created or changed the entity (counted in `<entity>_new_or_updated`). */
  is_new_or_updated: z.boolean(),
});
export type MigrationResult = z.infer<typeof MigrationResult>;

/** A file name as the user's machine named it: no folders, no control characters. */
export const MigrationFilename = text(1, 255).refine((name) => !/[/\\]/.test(name) && ![...name].some((char) => char.charCodeAt(0) < 0x20), {
  error: 'Must be a file name without folders or control characters',
});

/** Starts a submission: the file's name (shown in the list) and its size, so progress can show bytes of total. */
export const MigrationSubmissionRequest = z.strictObject({
  filename: MigrationFilename,
  /** Bytes of the export file. The upload link is bound to it: storage refuses a file of another size. */
  size_bytes: z.int().min(1, { error: 'Must be at least 1 byte' }).max(5 * 1024 ** 3, { error: 'Must be at most 5 GiB (5368709120 bytes)' }),
  /**
   * SHA-256 (hex) of the export file, when the uploader can compute it (`npm run migrate` always does; the portal for
   * files it can hash in memory). The upload link is then bound to it too: the PUT sends the `upload_headers`
   * (`x-amz-checksum-sha256`), and storage refuses a file with another hash.
   */
  sha256: Sha256Hex.optional(),
});
export type MigrationSubmissionRequest = z.infer<typeof MigrationSubmissionRequest>;

/**
 * A submission: the new migration (Pending) and where to PUT the export file. The upload goes straight to storage
 * with the given headers; then `POST migrations/{migration_reference}/start` imports it.
 */
export const MigrationSubmission = z.object({
  migration: LegacyMigration,
  upload_url: z.string(),
  /** Headers the PUT must send as signed. */
  upload_headers: z.record(z.string(), z.string()),
  upload_expires_at: Timestamp,
});
export type MigrationSubmission = z.infer<typeof MigrationSubmission>;
