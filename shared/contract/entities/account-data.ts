import * as z from 'zod';
import {
  LegalHoldTargetType,
  MigrationErrorType,
  MigrationState,
  MigrationSuccessType,
  MigrationWarningType,
  RetentionRecordType,
  RetentionTimestampType,
  SupportAccessApprovalState,
} from '../../constants/account.ts';
import { PAYLOAD_TYPES, PayloadType } from '../../constants/payloads.ts';
import { REGULATORY_RULES, RegulatoryRule } from '../../constants/regulatory-rules.ts';
import { RetentionDays, RoleReference, text } from '../fields.ts';
import { itemsAtMost, lengthAtMost } from '../messages.ts';
import { LegalHoldTarget } from './legal-hold-ref.ts';

/** An ISO date and time with a zone (its fraction is open-ended in the format, so its length is bounded). */
const IsoInstant = z.iso.datetime({ error: 'Must be an ISO date like 1999-01-01T16:50:00Z' }).max(64, { error: lengthAtMost(64) });
import { Audited, Timestamp } from './common.ts';
import { Actor } from './actor.ts';

/** One result type of a migration, summarised: how many rows gave it, with the first such row's reference and message. */
const MigrationIssue = z.object({
  type: z.string(),
  message: z.string().optional(),
  reference: z.string().optional(),
  count: z.int().min(0).optional(),
});

/** How far an import has read its file: shown while it runs, so a long import visibly moves. */
export const MigrationProgress = z.object({
  /** Rows of the file resulted so far, counted as the results number them (row 1 is the header line). */
  rows_read: z.int().min(0),
  bytes_read: z.int().min(0),
  bytes_total: z.int().min(0),
  updated_at: Timestamp,
});
export type MigrationProgress = z.infer<typeof MigrationProgress>;

export const LegacyMigration = z.object({
  migration_reference: z.string(),
  migrated_at: Timestamp.optional(),
  migration_state: MigrationState,
  filename: z.string(),
  /** Totals and new-or-updated counters per record kind, e.g. `devices_total`, `devices_new_or_updated`. */
  counters: z.record(z.string(), z.int().min(0)).default({}),
  warnings: z.array(MigrationIssue.extend({ type: MigrationWarningType })).default([]),
  import_errors: z.array(MigrationIssue.extend({ type: MigrationErrorType })).default([]),
  import_warnings: z.array(MigrationIssue.extend({ type: MigrationWarningType })).default([]),
  imported: z.array(MigrationIssue.extend({ type: MigrationSuccessType })).default([]),
  error_message: z.string().optional(),
  /** Who submitted the file, and when; when its import first started (absent until then). */
  submitted_by: z.string().optional(),
  submitted_by_actor: Actor.optional(),
  submitted_at: Timestamp.optional(),
  started_at: Timestamp.optional(),
  /** Absent until the import has read its first rows. */
  progress: MigrationProgress.optional(),
});
export type LegacyMigration = z.infer<typeof LegacyMigration>;

/**
 * How many records of one kind an active hold covers, counted by Query when the holds are listed: exact, or with
 * `capped` the count reached where counting stopped, so the screen says "more than {count}".
 */
export const LegalHoldCoverageCount = z.object({ count: z.int().min(0), capped: z.boolean() });
export type LegalHoldCoverageCount = z.infer<typeof LegalHoldCoverageCount>;

/**
 * What an active hold covers (a released hold covers nothing, so it has none). A device user's hold: recordings, GPS
 * fixes, device logs, capture ledger entries and devices; a portal user's hold: comments, receipts and user activity
 * records.
 */
export const LegalHoldCoverage = z.object({
  recordings: LegalHoldCoverageCount.optional(),
  gps_fixes: LegalHoldCoverageCount.optional(),
  device_logs: LegalHoldCoverageCount.optional(),
  /** The phones' capture ledger entries (CaptureLedgerData). */
  ledger_entries: LegalHoldCoverageCount.optional(),
  devices: LegalHoldCoverageCount.optional(),
  comments: LegalHoldCoverageCount.optional(),
  receipts: LegalHoldCoverageCount.optional(),
  activity_records: LegalHoldCoverageCount.optional(),
});
export type LegalHoldCoverage = z.infer<typeof LegalHoldCoverage>;

/**
 * Where putting a device user's hold (or its release) on the recordings' S3 objects stands: `Syncing` while the
 * objects are walked (in a job for a large hold), `Synced` when every covered object is in step, `Failed` when the walk
 * stopped on an error (placing or releasing the hold again resumes it).
 */
export const LegalHoldSyncState = z.enum(['Syncing', 'Synced', 'Failed']);
export type LegalHoldSyncState = z.infer<typeof LegalHoldSyncState>;

export const LegalHold = z.object({
  target: z.string(),
  target_type: LegalHoldTargetType,
  is_active: z.boolean(),
  created_at: Timestamp,
  /** Who placed or released it last, by their stable reference (./actor.ts); `updated_by_actor` names them as then. */
  updated_by: z.string().optional(),
  updated_by_actor: Actor.optional(),
  updated_at: Timestamp.optional(),
  /** Counts of what the hold covers (the holds list answers them for active holds). */
  coverage: LegalHoldCoverage.optional(),
  /** A device user's hold only: the S3 objects' legal holds being put in step with this hold. */
  sync_state: LegalHoldSyncState.optional(),
  /** Objects walked so far by the current placing or release (set or cleared, or already as they should be). */
  objects_synced: z.int().min(0).optional(),
  /** Why the last walk stopped, when `sync_state` is `Failed`. */
  sync_error: z.string().optional(),
  /**
   * The open cases whose collect-and-hold placed this hold (docs/cases.md): closing the last of them releases it. Absent
   * when a person placed it: then no case releases it.
   */
  placed_by_cases: z.array(z.string()).optional(),
});
export type LegalHold = z.infer<typeof LegalHold>;

/**
 * Legal hold request, as the spec names it: `target` and `target_type`, and whether it is active. The path already
 * names the target, so both may be left out; when sent they must equal the path's (the router refuses a body that
 * contradicts its path, lambdas/core/http/parse-request.ts).
 */
export const LegalHoldRequest = z.strictObject({
  target: LegalHoldTarget.optional(),
  target_type: LegalHoldTargetType.optional(),
  is_active: z.boolean().default(true),
});
export type LegalHoldRequest = z.infer<typeof LegalHoldRequest>;

const deleteOrDestroy = {
  delete_after_days: RetentionDays.optional(),
  destroy_after_days: RetentionDays.optional(),
};

const PayloadRetention = z.strictObject({
  payload_type: PayloadType,
  ...deleteOrDestroy,
  retention_timestamp: RetentionTimestampType.default('payload_time'),
  required_receipts: z.int().min(0).default(0),
  required_transfers: z.int().min(0).default(0),
});

const RecordRetention = z.strictObject(deleteOrDestroy).optional();

/** Retention per record type: delete_after_days (logical) or destroy_after_days (unrecoverable). */
export const RetentionPolicyRequest = z.strictObject({
  AlertData: RecordRetention,
  /** The phones' ledger entries (capture completeness), counted from the call's or message's start. */
  CaptureLedgerData: RecordRetention,
  /** Closed cases (matters) and their production log, counted from the case's closing. */
  CaseData: RecordRetention,
  DeviceActivityData: RecordRetention,
  DeviceData: RecordRetention,
  DeviceUserData: RecordRetention,
  /** Erasure requests (GDPR Art 17) with their decision, review and report, counted from the request's end. */
  ErasureRequestData: RecordRetention,
  GpsData: RecordRetention,
  LegacyMigrationData: RecordRetention,
  LegalHoldData: RecordRetention,
  /** One entry per payload type at most. */
  PayloadData: z.array(PayloadRetention).max(PAYLOAD_TYPES.length, { error: itemsAtMost(PAYLOAD_TYPES.length) }).optional(),
  SupervisionData: RecordRetention,
  SupportAccessData: RecordRetention,
  TransferableData: RecordRetention,
  UserActivityData: RecordRetention,
  /**
   * The record-keeping rules the tenant is under (none: `[]`); no period may be shorter than the strictest one's
   * minimum (shared/constants/regulatory-rules.ts). Absent from a request: the rules stay as stored.
   */
  regulatory_rules: z
    .array(RegulatoryRule)
    .max(REGULATORY_RULES.length, { error: itemsAtMost(REGULATORY_RULES.length) })
    .refine((rules) => new Set(rules).size === rules.length, { error: 'Each rule at most once' })
    .optional(),
});
export type RetentionPolicyRequest = z.infer<typeof RetentionPolicyRequest>;

/**
 * How the recordings' S3 objects follow the policy, for the editor to show beside it: each object is locked (Object
 * Lock retention, in `mode`) until its base time plus its type's period. A longer period extends the lock of stored
 * objects; a shorter one applies to new recordings only (a COMPLIANCE lock can never be shortened). `message` says so
 * in words.
 */
export const ObjectLockFacts = z.object({
  mode: z.enum(['COMPLIANCE', 'GOVERNANCE']),
  shorter_periods_apply_to: z.literal('new_recordings'),
  message: z.string(),
});
export type ObjectLockFacts = z.infer<typeof ObjectLockFacts>;

export const RetentionPolicy = Audited.extend(RetentionPolicyRequest.shape).extend({
  /** Answered by GET and PUT, never stored or accepted in a request. */
  object_lock: ObjectLockFacts.optional(),
});
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;

/** What the retention job did to a record: Deleted (logical, restorable) or Destroyed (gone for good). */
export const DISPOSAL_ACTIONS = ['Deleted', 'Destroyed'] as const;
export const DisposalAction = z.enum(DISPOSAL_ACTIONS);
export type DisposalAction = z.infer<typeof DisposalAction>;

/** The rule a disposal applied, as it stood when the job ran (the policy may have changed since). */
export const AppliedRetention = z.object({
  delete_after_days: z.int().min(0).optional(),
  destroy_after_days: z.int().min(0).optional(),
  /** PayloadData: the timestamp the periods counted from. Other record types count from the record's own time. */
  retention_timestamp: RetentionTimestampType.optional(),
  /** The record's time the periods counted from. */
  base_time: Timestamp,
});
export type AppliedRetention = z.infer<typeof AppliedRetention>;

/**
 * A disposal record: written by the retention job in the same transaction as the record's state change, so a
 * disposal without its record cannot happen. `reference` names the record (a payload reference, or the record's
 * own reference for other types); `checksum` is the payload's SHA-256 of the plaintext, or of the stored record.
 */
export const Disposal = z.object({
  disposal_id: z.string(),
  record_type: RetentionRecordType,
  payload_type: PayloadType.optional(),
  reference: z.string(),
  action: DisposalAction,
  checksum: z.string().optional(),
  disposed_at: Timestamp,
  run_id: z.string(),
  policy: AppliedRetention,
});
export type Disposal = z.infer<typeof Disposal>;

/** A count of records found due, stopped at a cap: `more` says there are more than `count`. */
export const DueCount = z.object({ count: z.int().min(0), more: z.boolean() });
export type DueCount = z.infer<typeof DueCount>;

/**
 * Why the run keeps a record its policy makes due: an active legal hold covers it; its object's Object Lock retention
 * is still in force (before destruction); its required receipts or transfers are missing (before deletion); it is
 * still in use (a triggered alert, a device user with a device, a hold not yet released, a running transfer); it is
 * not in a state retention acts on (an upload that failed or was quarantined).
 */
export const RetentionKeptReason = z.enum(['legal_hold', 'object_lock', 'requirements', 'in_use', 'not_settled']);
export type RetentionKeptReason = z.infer<typeof RetentionKeptReason>;

/** Records a policy makes due that the run keeps, for one reason, instead of deleting or destroying them. */
export const KeptCount = DueCount.extend({ reason: RetentionKeptReason, instead_of: z.enum(['Deleted', 'Destroyed']) });
export type KeptCount = z.infer<typeof KeptCount>;

/**
 * What the next run would do to one record type (or one payload type of PayloadData) under a policy: how many it
 * deletes, how many it destroys, and how many due records it keeps and why (only reasons with a count are listed).
 */
export const DueUnderPolicy = z.object({ deleted: DueCount, destroyed: DueCount, kept: z.array(KeptCount) });
export type DueUnderPolicy = z.infer<typeof DueUnderPolicy>;

/**
 * Retention preview: per record type (per payload type for PayloadData), what the next run would do under the current
 * policy and under the proposed one. Each due record is decided by the run's own decision (legal holds, Object Lock,
 * receipts and transfers, the record's state), so a deleted or destroyed count is what the run disposes of, and the
 * records it keeps are counted by reason; records a run already found held (parked under their hold) are counted kept.
 */
export const RetentionPreview = z.object({
  /** The run time the counts assume. */
  as_of: Timestamp,
  /** Counts stop here; past it a count reads "more than". */
  count_cap: z.int().min(1),
  rows: z.array(
    z.object({
      record_type: RetentionRecordType,
      payload_type: PayloadType.optional(),
      current: DueUnderPolicy,
      proposed: DueUnderPolicy,
    }),
  ),
});
export type RetentionPreview = z.infer<typeof RetentionPreview>;

export const SupportAccess = z.object({
  client: z.string().optional(),
  request_reference: z.string(),
  /** Who asked (staff) and who decided, by their stable references (./actor.ts), each named as then beside it. */
  requested_by: z.string().optional(),
  requested_by_actor: Actor.optional(),
  role: z.string(),
  request_description: z.string().optional(),
  requested_expiry: Timestamp,
  approval_state: SupportAccessApprovalState,
  rejection_reason: z.string().optional(),
  approval_expiry: Timestamp.optional(),
  approved_by: z.string().optional(),
  approved_by_actor: Actor.optional(),
  created_at: Timestamp.optional(),
});
export type SupportAccess = z.infer<typeof SupportAccess>;

/** Staff ask for a role (client or system) in a tenant until an expiry. */
export const SupportAccessRequest = z.strictObject({
  role: RoleReference,
  request_description: text(1, 1000),
  requested_expiry: IsoInstant,
});
export type SupportAccessRequest = z.infer<typeof SupportAccessRequest>;

/** A tenant user approves (optionally shortening the expiry), rejects with a reason, or revokes. */
export const SupportAccessDecision = z.strictObject({
  approval_state: z.enum(['approved', 'rejected', 'revoked']),
  rejection_reason: text(1, 1000).optional(),
  approval_expiry: IsoInstant.optional(),
});
export type SupportAccessDecision = z.infer<typeof SupportAccessDecision>;
