import type { LegalHoldTargetType, RetentionRecordType, RetentionTimestampType, SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { MIGRATION_STATES, TRANSFER_STATES } from '#shared/constants/account.ts';
import type { ALERT_SCOPES } from '#shared/constants/alerts.ts';
import type { DeviceCommandState, LogLevel, MetricScope, Service } from '#shared/constants/devices.ts';
import type { CompletenessOutcome } from '#shared/constants/completeness.ts';
import type { Direction, PayloadState, PayloadType } from '#shared/constants/payloads.ts';
import type { DisposalAction } from '#shared/contract/entities/account-data.ts';
import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';

/**
 * The words the portal shows for wire values, in en-GB: one map per enum, all here, so a screen never prints a raw
 * value (`canceled`, `InProgress`, `WARN`) and two screens never word one value differently. Typed as a Record over
 * the enum, so a value added to the contract fails the build until it has a label.
 */

export const APPROVAL_STATE_LABELS: Record<SupportAccessApprovalState, string> = {
  pending: 'Pending',
  canceled: 'Cancelled',
  approved: 'Approved',
  rejected: 'Rejected',
  revoked: 'Revoked',
  expired: 'Expired',
};

export const COMMAND_STATE_LABELS: Record<DeviceCommandState, string> = {
  Sent: 'Sent',
  Acknowledged: 'Acknowledged',
  Completed: 'Completed',
  Failed: 'Failed',
};

export const LOG_LEVEL_LABELS: Record<LogLevel, string> = { DEBUG: 'Debug', INFO: 'Information', WARN: 'Warning', ERROR: 'Error' };

export const METRIC_SCOPE_LABELS: Record<MetricScope, string> = {
  Daily: 'Daily',
  Weekly: 'Weekly',
  Monthly: 'Monthly',
  Yearly: 'Yearly',
  Summary: 'Summary',
};

export const SERVICE_LABELS: Record<Service, string> = {
  calls: 'Calls',
  interviews: 'Interviews',
  gps: 'GPS',
  photos: 'Photos',
  mms: 'MMS',
  rcs: 'RCS',
  sms: 'SMS',
  videos: 'Videos',
};

export const PAYLOAD_TYPE_LABELS: Record<PayloadType, string> = {
  AbortedCall: 'Aborted call',
  BlockedCall: 'Blocked call',
  Call: 'Call',
  Diagnostics: 'Diagnostics',
  Interview: 'Interview',
  Photo: 'Photo',
  MMS: 'MMS',
  RCS: 'RCS',
  SMS: 'SMS',
  Video: 'Video',
};

export const PAYLOAD_STATE_LABELS: Record<PayloadState, string> = {
  NotRecorded: 'Not recorded',
  Recorded: 'Recorded on device',
  Uploaded: 'Uploaded',
  Processed: 'Processed',
  Transferred: 'Transferred',
  Deleted: 'Deleted',
  Destroyed: 'Destroyed',
  Failed: 'Failed',
  Scanning: 'Being scanned',
  Quarantined: 'Quarantined',
};

export const TRANSFER_STATE_LABELS: Record<(typeof TRANSFER_STATES)[number], string> = {
  Pending: 'Pending',
  InProgress: 'In progress',
  Succeeded: 'Succeeded',
  PartialFail: 'Partly failed',
  Failed: 'Failed',
};

export const MIGRATION_STATE_LABELS: Record<(typeof MIGRATION_STATES)[number], string> = {
  Pending: 'Pending',
  Quarantined: 'Quarantined',
  Migrated: 'Migrated',
  PartialFail: 'Partly failed',
  Failed: 'Failed',
};

/** A call's or message's direction, as the phone saw it. */
export const DIRECTION_LABELS: Record<Direction, string> = { I: 'Incoming', O: 'Outgoing', CC: 'Conference' };

/** A ledger entry's outcome (capture completeness), and a recording no entry explains. */
export const COMPLETENESS_OUTCOME_LABELS: Record<CompletenessOutcome, string> = {
  Captured: 'Captured',
  'Captured late': 'Captured late',
  Short: 'Short',
  Pending: 'Pending',
  Missing: 'Missing',
  Unexpected: 'Unexpected',
};

export const ALERT_SCOPE_LABELS: Record<(typeof ALERT_SCOPES)[number], string> = { ops: 'Operational', sec: 'Security' };

export const RETENTION_RECORD_TYPE_LABELS: Record<RetentionRecordType, string> = {
  AlertData: 'Alerts',
  CaptureLedgerData: 'Capture ledger entries',
  CaseData: 'Cases and productions',
  DeviceActivityData: 'Device activity',
  DeviceData: 'Devices',
  DeviceUserData: 'Device users',
  ErasureRequestData: 'Erasure requests',
  GpsData: 'GPS fixes',
  LegacyMigrationData: 'Legacy migrations',
  LegalHoldData: 'Released legal holds',
  PayloadData: 'Recordings',
  SupervisionData: 'Supervision reviews',
  SupportAccessData: 'Support access requests',
  TransferableData: 'Transfers',
  UserActivityData: 'User activity',
};

export const RETENTION_TIMESTAMP_LABELS: Record<RetentionTimestampType, string> = {
  payload_time: 'Recorded',
  processed_at: 'Processed',
  transferred_at: 'Transferred',
  receipt_confirmed_at: 'Receipt confirmed',
};

export const DISPOSAL_ACTION_LABELS: Record<DisposalAction, string> = { Deleted: 'Deleted', Destroyed: 'Destroyed' };

/** What each alert permission of a role allows (the role editor's checkboxes, a role's history). */
export const ALERT_PERMISSION_LABELS: Record<keyof AlertPermissions, string> = {
  ops_read: 'Read operational alerts',
  ops_write: 'Clear operational alerts',
  sec_read: 'Read security alerts',
  sec_write: 'Clear security alerts',
};

export const LEGAL_HOLD_TARGET_LABELS: Record<LegalHoldTargetType, string> = { DeviceUser: 'Device user', PortalUser: 'Portal user' };

/** A value's label, or the value itself when it is not one the map knows (an older or newer wire value). */
export function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value as K] : value;
}

/** Select options for an enum, in the enum's order, worded by its label map. */
export function optionsOf<K extends string>(values: readonly K[], labels: Record<K, string>): { value: K; label: string }[] {
  return values.map((value) => ({ value, label: labels[value] }));
}
