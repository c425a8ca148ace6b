import { MIGRATION_ERROR_TYPES, MIGRATION_WARNING_TYPES, type MigrationState } from '#shared/constants/account.ts';
import type { MigrationResultEntity, MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';

/** The migration screens' words and colours for wire values. State words are the portal's one map (lib/labels.ts). */
export { MIGRATION_STATE_LABELS } from '../../lib/labels.ts';

/** Badge colours: grey waiting or importing, green done, orange partly failed, red failed or quarantined. */
export const MIGRATION_STATE_COLOURS: Record<MigrationState, string> = {
  Pending: 'blue',
  Quarantined: 'red',
  Migrated: 'green',
  PartialFail: 'orange',
  Failed: 'red',
};

/** A Pending migration is waiting for its upload or being imported: the job moves it on, so screens refresh. */
export function isMoving(state: MigrationState): boolean {
  return state === 'Pending';
}

export const RESULT_KIND_LABELS: Record<MigrationResultKind, string> = { success: 'Imported', warning: 'Warning', error: 'Error' };
export const RESULT_KIND_COLOURS: Record<MigrationResultKind, string> = { success: 'green', warning: 'yellow', error: 'red' };

export const RESULT_ENTITY_LABELS: Record<MigrationResultEntity, string> = {
  Device: 'Device',
  DeviceUser: 'Device user',
  Group: 'Group',
  Payload: 'Recording',
};

/** The entity counters the job keeps (`<name>_total`, `<name>_new_or_updated`), in the order a file lists them. */
export const COUNTER_ENTITIES = [
  { name: 'groups', label: 'Groups' },
  { name: 'device_users', label: 'Device users' },
  { name: 'devices', label: 'Devices' },
  { name: 'payloads', label: 'Recordings' },
] as const;

const ERROR_TYPES: ReadonlySet<string> = new Set(MIGRATION_ERROR_TYPES);
const WARNING_TYPES: ReadonlySet<string> = new Set(MIGRATION_WARNING_TYPES);

/** Which kind a result type counts as (the catalogue of spec point 4 splits them in three). */
export function kindOfType(type: MigrationResultType): MigrationResultKind {
  if (ERROR_TYPES.has(type)) return 'error';
  if (WARNING_TYPES.has(type)) return 'warning';
  return 'success';
}

/** What each result type means, in a few words (docs/migration-format.md, "What each row does"). */
export const RESULT_TYPE_LABELS: Record<MigrationResultType, string> = {
  DuplicateDeviceReference: 'Device reference on an earlier row',
  PayloadDataNotAvailable: 'Recording media missing from the export',
  PayloadWithNoMatchingUser: 'Recording with no device user',
  ConferenceCallWithMismatchingData: 'Conference leg differs from its call',
  Error: 'Row refused',
  UnknownFile: 'Not a legacy export',
  DeviceAlreadyActiveInThePlatform: 'Device already active on Verity',
  UserAlreadyActiveInThePlatform: 'Device user already active on Verity',
  PayloadAlreadyLoaded: 'Recording already loaded',
  IgnoreNewPayloadMigrationDisabled: 'New recording skipped (recordings switched off)',
  IgnoreOnboardingDisabled: 'New user skipped (onboarding switched off)',
  IgnoreOffboardingDisabled: 'New offboarded user skipped (offboarding switched off)',
  SupersededOnboardingDisabled: 'Onboarding not applied (onboarding switched off)',
  SupersededOffboardingDisabled: 'Offboarding not applied (offboarding switched off)',
  DeviceCreatedActivated: 'Device created, active',
  DeviceCreatedDeactivated: 'Device created, deactivated',
  GroupAdded: 'Group added',
  NoChangeToDevice: 'Device unchanged',
  NoChangeToUser: 'Device user unchanged',
  NoChangeToGroup: 'Group unchanged',
  NoChangeToPayload: 'Recording unchanged',
  UserCreatedOnboarded: 'Device user created, onboarded',
  UserCreatedOffboarded: 'Device user created, offboarded',
  PayloadCreated: 'Recording created',
  RecordedPayloadCreated: 'Recording created (never uploaded)',
  PayloadUpdated: 'Recording updated',
};
