import * as z from 'zod';
import { TransferFileFormat, TransferState, TransferTargetType, TransferType } from '../../constants/account.ts';
import { TRANSFERABLE_PAYLOAD_TYPES, TransferablePayloadType } from '../../constants/payloads.ts';
import {
  IamRoleArn,
  PgpPublicKey,
  S3Destination,
  SftpRootDirectory,
  text,
  TransferConfigReference,
} from '../fields.ts';
import { Schedule } from '../schedule.ts';
import { itemsAtLeast, itemsBetween, lengthAtMost } from '../messages.ts';
import { Audited, Timestamp } from './common.ts';

export const S3TransferParams = z.strictObject({ destination: S3Destination, iam_role_arn: IamRoleArn });
export type S3TransferParams = z.infer<typeof S3TransferParams>;

export const SftpTransferParams = z.strictObject({
  server: text(1, 255),
  port: z.int().min(1).max(65535).default(22),
  root_directory: SftpRootDirectory,
  username: text(1, 255),
  /**
   * The server's host key as `ssh-keygen -l` prints it (`SHA256:` and 43 base64 characters). Deliveries refuse a
   * server whose key differs, and refuse to deliver while it is unset, naming the key the server showed (docs/decisions.md, Transfer delivery).
   */
  host_key_fingerprint: z
    .string()
    .max(50, { error: lengthAtMost(50) })
    .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, { error: 'Must be the server host key fingerprint as ssh-keygen -l prints it: SHA256: then 43 characters' })
    .optional(),
});
export type SftpTransferParams = z.infer<typeof SftpTransferParams>;

/** Secrets are write-only: stored encrypted, never returned. */
export const TransferSecrets = z.strictObject({
  zip_password: text(1, 255).optional(),
  sftp_password: text(1, 255).optional(),
});

const configFields = {
  transfer_type: TransferType,
  payload_types: z
    .array(TransferablePayloadType)
    .min(1, { error: itemsAtLeast(1) })
    .max(TRANSFERABLE_PAYLOAD_TYPES.length, { error: itemsBetween(1, TRANSFERABLE_PAYLOAD_TYPES.length) }),
  schedule: Schedule.default(''),
  pgp_key: PgpPublicKey.optional(),
  transfer_file_format: TransferFileFormat.default('Zipped'),
  is_active: z.boolean().default(true),
  secured_data: TransferSecrets.optional(),
};

/**
 * Create or replace a transfer config. `target_type` picks the params form (S3: destination and role ARN;
 * SFTP: server, port, root directory, username).
 */
export const TransferConfigRequest = z.discriminatedUnion('target_type', [
  z.strictObject({ ...configFields, target_type: z.literal('S3'), params: S3TransferParams }),
  z.strictObject({ ...configFields, target_type: z.literal('SFTP'), params: SftpTransferParams }),
]);
export type TransferConfigRequest = z.infer<typeof TransferConfigRequest>;

export const TransferConfig = Audited.extend({
  transfer_config_reference: TransferConfigReference,
  transfer_type: TransferType,
  target_type: TransferTargetType,
  payload_types: z.array(TransferablePayloadType),
  schedule: z.string().default(''),
  pgp_key: z.string().optional(),
  transfer_file_format: TransferFileFormat,
  params: z.record(z.string(), z.unknown()),
  is_active: z.boolean(),
  /** Which secrets are set (never their values). */
  has_zip_password: z.boolean().optional(),
  has_sftp_password: z.boolean().optional(),
  /**
   * S3 targets: the ExternalId Verity presents when it assumes `iam_role_arn`. The role's trust policy requires it
   * (`sts:ExternalId`), so no other tenant's configuration naming the same role can use it.
   */
  external_id: z.string().optional(),
});
export type TransferConfig = z.infer<typeof TransferConfig>;

/** Where one delivered file stands: waiting (or being retried), arrived and recorded, or given up on. */
export const TRANSFER_FILE_STATES = ['Pending', 'Delivered', 'Failed'] as const;
export const TransferFileState = z.enum(TRANSFER_FILE_STATES);
export type TransferFileState = z.infer<typeof TransferFileState>;

/** What a delivered file holds: one recording (Payload transfers), the metadata report (Vantage), or the manifest. */
export const TRANSFER_FILE_KINDS = ['Recording', 'Report', 'Manifest'] as const;
export const TransferFileKind = z.enum(TRANSFER_FILE_KINDS);
export type TransferFileKind = z.infer<typeof TransferFileKind>;

/** The names used in a file's `checksums` record (SHA-256, lower-case hex). */
export const TRANSFER_CHECKSUM = {
  /** Of the bytes that arrived at the destination, as the destination read them back while writing. */
  delivered: 'delivered_sha256',
  /** Of the recording's plaintext as the device sealed it (the payload's `checksum`): the chain of custody. */
  device: 'device_sha256',
} as const;

/**
 * One file of a transfer (the spec's `transfers` entry): where it came from, where it went, its checksums
 * (`delivered_sha256`, `device_sha256`: see TRANSFER_CHECKSUM), how many attempts it took, and where it stands.
 * Each is stored as its own item, so a transfer of thousands of recordings is read page by page
 * (`GET transfers/{transfer_id}/files`).
 */
export const TransferItem = z.object({
  source_path: z.string(),
  dest_path: z.string(),
  checksums: z.record(z.string(), z.string()).default({}),
  attempts: z.int().min(0),
  file_state: TransferFileState,
  file_kind: TransferFileKind,
  /** The recording delivered (Recording files only). */
  payload_reference: z.string().optional(),
  /** Bytes of the delivered file, once delivered. */
  size: z.int().min(0).optional(),
  /** Why the last attempt failed (kept after a later success only until it is delivered). */
  last_error: z.string().optional(),
  delivered_at: Timestamp.optional(),
});
export type TransferItem = z.infer<typeof TransferItem>;

export const Transferable = z.object({
  transfer_id: z.string(),
  transfer_config_reference: z.string(),
  transfer_type: TransferType,
  created_at: Timestamp,
  completed_at: Timestamp.optional(),
  transfer_state: TransferState,
  /** The first page of the transfer's files (at most 100); the rest are read from `GET transfers/{transfer_id}/files`. */
  transfers: z.array(TransferItem).default([]),
  report_from: Timestamp.optional(),
  report_to: Timestamp.optional(),
  related_payloads: z.array(z.string()).default([]),
  payload_count: z.int().min(0),
  error_message: z.string().optional(),
  /** Progress, once the job has chosen what to deliver: files (recordings or report, and the manifests) and bytes. */
  files_total: z.int().min(0).optional(),
  files_done: z.int().min(0).optional(),
  files_failed: z.int().min(0).optional(),
  bytes_total: z.int().min(0).optional(),
  bytes_done: z.int().min(0).optional(),
  /** When the job started working on it, and when it last recorded progress. */
  started_at: Timestamp.optional(),
  progress_at: Timestamp.optional(),
  /** The transfer this one runs again (`POST transfers/{transfer_id}/run`). */
  rerun_of: z.string().optional(),
});
export type Transferable = z.infer<typeof Transferable>;

/** Starting a run returns the new (or re-run) transfer. */
export const TransferRunResponse = z.object({ transfer_id: z.string(), transfer_state: TransferState });
export type TransferRunResponse = z.infer<typeof TransferRunResponse>;
