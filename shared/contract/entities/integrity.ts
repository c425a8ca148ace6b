import * as z from 'zod';

/** Why a stored recording failed its fixity check. */
export const FIXITY_FAILURE_KINDS = ['missing', 'changed', 'unreadable'] as const;
export const FixityFailureKind = z.enum(FIXITY_FAILURE_KINDS);
export type FixityFailureKind = z.infer<typeof FixityFailureKind>;

/** One recording that failed a run, and the `sec` alert raised about it. */
export const FixityFailure = z.object({
  payload_reference: z.string(),
  kind: FixityFailureKind,
  alert_reference: z.string().optional(),
});

/**
 * The spec's `IntegrityCheck` ("per-client statistics on stores"): one run of the `fixity` job for one tenant. Every
 * Processed recording's stored object is checked for presence, size and version on every run; a share of them is read
 * in full and its SHA-256 compared with the device's digest, so the whole store is read once per cycle.
 */
export const IntegrityCheck = z.object({
  client: z.string(),
  check_id: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  /** Objects whose presence, size and version were checked this run. */
  objects_checked: z.int().min(0),
  /** Objects read in full and hashed this run, and their bytes. */
  objects_verified: z.int().min(0),
  bytes_verified: z.int().min(0),
  failures_missing: z.int().min(0),
  failures_changed: z.int().min(0),
  failures_unreadable: z.int().min(0),
  /** The failing recordings (at most 100 listed; the counts above are exact). */
  failures: z.array(FixityFailure),
  /** The current cycle: when it started, how many recordings it has read in full, of how many stored. */
  cycle_days: z.int().min(1),
  cycle_started_at: z.string(),
  cycle_objects_read: z.int().min(0),
  stored_objects: z.int().min(0),
  /** Share (0..1) of the tenant's stored recordings fully read in the current cycle. */
  cycle_progress: z.number().min(0).max(1),
  /** True when the run stopped at its byte budget; the next run resumes at `position`. */
  budget_reached: z.boolean(),
  /** The processing time and reference of the last recording the cycle read in full (absent at a cycle's start). */
  position: z.string().optional(),
});
export type IntegrityCheck = z.infer<typeof IntegrityCheck>;

export const IntegrityChecksResponse = z.object({ checks: z.array(IntegrityCheck) });
