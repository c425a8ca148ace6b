import * as z from 'zod';

export const SUPPORT_ACCESS_APPROVAL_STATES = ['pending', 'canceled', 'approved', 'rejected', 'revoked', 'expired'] as const;
export const SupportAccessApprovalState = z.enum(SUPPORT_ACCESS_APPROVAL_STATES);
export type SupportAccessApprovalState = z.infer<typeof SupportAccessApprovalState>;

export const TRANSFER_STATES = ['Pending', 'InProgress', 'Succeeded', 'PartialFail', 'Failed'] as const;
export const TransferState = z.enum(TRANSFER_STATES);
export type TransferState = z.infer<typeof TransferState>;

export const MIGRATION_STATES = ['Pending', 'Quarantined', 'Migrated', 'PartialFail', 'Failed'] as const;
export const MigrationState = z.enum(MIGRATION_STATES);
export type MigrationState = z.infer<typeof MigrationState>;

/** Payload: recorded payloads. Vantage: the legacy platform's export format. */
export const TRANSFER_TYPES = ['Payload', 'Vantage'] as const;
export const TransferType = z.enum(TRANSFER_TYPES);
export type TransferType = z.infer<typeof TransferType>;

export const TRANSFER_TARGET_TYPES = ['S3', 'SFTP'] as const;
export const TransferTargetType = z.enum(TRANSFER_TARGET_TYPES);
export type TransferTargetType = z.infer<typeof TransferTargetType>;

/** ZippedWithPassword is a password-protected 7zip archive; PGP encryption is optional on any format. */
export const TRANSFER_FILE_FORMATS = ['Uncompressed', 'Zipped', 'ZippedWithPassword'] as const;
export const TransferFileFormat = z.enum(TRANSFER_FILE_FORMATS);
export type TransferFileFormat = z.infer<typeof TransferFileFormat>;

export const LEGAL_HOLD_TARGET_TYPES = ['PortalUser', 'DeviceUser'] as const;
export const LegalHoldTargetType = z.enum(LEGAL_HOLD_TARGET_TYPES);
export type LegalHoldTargetType = z.infer<typeof LegalHoldTargetType>;

/** Record types a retention policy covers (spec point 3). */
export const RETENTION_RECORD_TYPES = [
  'AlertData',
  'CaptureLedgerData',
  'CaseData',
  'DeviceActivityData',
  'DeviceData',
  'DeviceUserData',
  'ErasureRequestData',
  'GpsData',
  'LegacyMigrationData',
  'LegalHoldData',
  'PayloadData',
  'SupervisionData',
  'SupportAccessData',
  'TransferableData',
  'UserActivityData',
] as const;
export const RetentionRecordType = z.enum(RETENTION_RECORD_TYPES);
export type RetentionRecordType = z.infer<typeof RetentionRecordType>;

/** The payload timestamp a payload retention period counts from. */
export const RETENTION_TIMESTAMP_TYPES = ['payload_time', 'processed_at', 'transferred_at', 'receipt_confirmed_at'] as const;
export const RetentionTimestampType = z.enum(RETENTION_TIMESTAMP_TYPES);
export type RetentionTimestampType = z.infer<typeof RetentionTimestampType>;

/** Legacy migration result types (spec point 4). */
export const MIGRATION_ERROR_TYPES = [
  'DuplicateDeviceReference',
  'PayloadDataNotAvailable',
  'PayloadWithNoMatchingUser',
  'ConferenceCallWithMismatchingData',
  'Error',
  'UnknownFile',
] as const;
export const MigrationErrorType = z.enum(MIGRATION_ERROR_TYPES);
export type MigrationErrorType = z.infer<typeof MigrationErrorType>;

/**
 * The spec names "Ignore and Superseded variants for onboarding or offboarding disabled"; we spell them
 * IgnoreOnboardingDisabled, IgnoreOffboardingDisabled, SupersededOnboardingDisabled, SupersededOffboardingDisabled.
 */
export const MIGRATION_WARNING_TYPES = [
  'DeviceAlreadyActiveInThePlatform',
  'UserAlreadyActiveInThePlatform',
  'PayloadAlreadyLoaded',
  'IgnoreNewPayloadMigrationDisabled',
  'IgnoreOnboardingDisabled',
  'IgnoreOffboardingDisabled',
  'SupersededOnboardingDisabled',
  'SupersededOffboardingDisabled',
] as const;
export const MigrationWarningType = z.enum(MIGRATION_WARNING_TYPES);
export type MigrationWarningType = z.infer<typeof MigrationWarningType>;

/**
 * The spec elides the NoChangeTo... family ("NoChangeTo..."); we name the entities it can apply to:
 * NoChangeToDevice, NoChangeToUser, NoChangeToGroup, NoChangeToPayload.
 */
export const MIGRATION_SUCCESS_TYPES = [
  'DeviceCreatedActivated',
  'DeviceCreatedDeactivated',
  'GroupAdded',
  'NoChangeToDevice',
  'NoChangeToUser',
  'NoChangeToGroup',
  'NoChangeToPayload',
  'UserCreatedOnboarded',
  'UserCreatedOffboarded',
  'PayloadCreated',
  'RecordedPayloadCreated',
  'PayloadUpdated',
] as const;
export const MigrationSuccessType = z.enum(MIGRATION_SUCCESS_TYPES);
export type MigrationSuccessType = z.infer<typeof MigrationSuccessType>;

/** Colour-mode preference stored locally by the web app. */
export const COLOUR_MODES = ['system', 'light', 'dark'] as const;
export const ColourMode = z.enum(COLOUR_MODES);
export type ColourMode = z.infer<typeof ColourMode>;
