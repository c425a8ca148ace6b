import * as z from 'zod';
import {
  LegalHoldTargetType,
  MigrationErrorType,
  MigrationState,
  MigrationSuccessType,
  MigrationWarningType,
  RetentionTimestampType,
  SupportAccessApprovalState,
} from '../../constants/account.ts';
import { PAYLOAD_TYPES, PayloadType } from '../../constants/payloads.ts';
import { RetentionDays, RoleReference, text } from '../fields.ts';
import { itemsAtMost, lengthAtMost } from '../messages.ts';

/** An ISO date and time with a zone (its fraction is open-ended in the format, so its length is bounded). */
const IsoInstant = z.iso.datetime({ error: 'Must be an ISO date like 1999-01-01T16:50:00Z' }).max(64, { error: lengthAtMost(64) });
import { Audited, Timestamp } from './common.ts';

const MigrationIssue = z.object({ type: z.string(), message: z.string().optional(), reference: z.string().optional() });

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
});
export type LegacyMigration = z.infer<typeof LegacyMigration>;

export const LegalHold = z.object({
  target: z.string(),
  target_type: LegalHoldTargetType,
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_by: z.string().optional(),
  updated_at: Timestamp.optional(),
});
export type LegalHold = z.infer<typeof LegalHold>;

/** Legal hold request; target and type come from the path, so the body only sets whether it is active. */
export const LegalHoldRequest = z.strictObject({ is_active: z.boolean().default(true) });
export type LegalHoldRequest = z.infer<typeof LegalHoldRequest>;

/** Legal hold target in a path: a portal user or device user reference. */
export const LegalHoldTarget = text(3, 255);

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
  DeviceActivityData: RecordRetention,
  DeviceData: RecordRetention,
  DeviceUserData: RecordRetention,
  GpsData: RecordRetention,
  LegacyMigrationData: RecordRetention,
  LegalHoldData: RecordRetention,
  /** One entry per payload type at most. */
  PayloadData: z.array(PayloadRetention).max(PAYLOAD_TYPES.length, { error: itemsAtMost(PAYLOAD_TYPES.length) }).optional(),
  SupportAccessData: RecordRetention,
  TransferableData: RecordRetention,
  UserActivityData: RecordRetention,
});
export type RetentionPolicyRequest = z.infer<typeof RetentionPolicyRequest>;

export const RetentionPolicy = Audited.extend(RetentionPolicyRequest.shape);
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;

export const SupportAccess = z.object({
  client: z.string().optional(),
  request_reference: z.string(),
  requested_by: z.string().optional(),
  role: z.string(),
  request_description: z.string().optional(),
  requested_expiry: Timestamp,
  approval_state: SupportAccessApprovalState,
  rejection_reason: z.string().optional(),
  approval_expiry: Timestamp.optional(),
  approved_by: z.string().optional(),
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
