import * as z from 'zod';
import { Timestamp } from './common.ts';
import { lengthAtMost } from '../messages.ts';

/** Which activity trail: portal users' and client apps' calls, or devices'. */
export const ActivityTrailName = z.enum(['user', 'device']);

/** The longest period one export covers: a year's trail is one file a firm can still handle. */
export const MAX_EXPORT_DAYS = 366;

const At = z.iso.datetime({ offset: false, error: 'must be an ISO 8601 time in UTC, e.g. 2026-01-31T00:00:00Z' }).max(64, { error: lengthAtMost(64) });

/** `POST activities/exports`: the period (`from` inclusive, `to` exclusive) and the trail. */
export const ActivityExportRequest = z
  .strictObject({ trail: ActivityTrailName, from: At, to: At })
  .superRefine((value, context) => {
    const span = Date.parse(value.to) - Date.parse(value.from);
    if (!(span > 0)) context.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (span > MAX_EXPORT_DAYS * 24 * 60 * 60_000) context.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_EXPORT_DAYS} days after from` });
  });

/**
 * One export of an activity trail (docs/audit-export.md): a job writes one signed `.tar` file; its progress is
 * records written of the estimate, and when Completed the answer carries a short-lived download link.
 */
export const ActivityExport = z.object({
  export_id: z.string(),
  trail: ActivityTrailName,
  from: Timestamp,
  to: Timestamp,
  state: z.enum(['Running', 'Completed', 'Failed']),
  records_written: z.int().min(0),
  /** The links from the period's first record to the checkpoint that covers its last (0 until known). */
  records_total: z.int().min(0),
  requested_at: Timestamp,
  requested_by: z.string(),
  completed_at: Timestamp.optional(),
  /** SHA-256 (hex) and size of the file, when Completed. */
  sha256: z.string().optional(),
  bytes: z.int().min(0).optional(),
  failure: z.string().optional(),
  /** A download link valid for a few minutes (Completed only). */
  download_url: z.string().optional(),
});
export type ActivityExport = z.infer<typeof ActivityExport>;

/** The public half of the audit signing key: what exports and checkpoints verify against. */
export const AuditSigningKey = z.object({ key_id: z.string(), algorithm: z.literal('ECDSA_SHA_256'), pem: z.string() });
