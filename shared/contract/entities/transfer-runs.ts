import * as z from 'zod';
import { TransferState, TransferType } from '../../constants/account.ts';
import { Timestamp } from './common.ts';

/*
 * A transfer run and its files. Kept apart from the configurations (transfers.ts, which re-exports these): a
 * configuration's schedule check bundles croner, and the record of a run is read by far more of the backend (retention
 * reads every run it disposes of) than ever parses a schedule.
 */

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
