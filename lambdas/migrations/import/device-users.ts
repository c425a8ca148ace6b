import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '../../core/ports/table-store.ts';
import { deviceUserToItem, readDeviceUser, type DeviceUserItem } from '../../core/store/entities/device-user.ts';
import { dueMarkerSync } from '../../account-data/public.ts';
import { keys } from '../../core/store/keys.ts';
import { groupStatsChanges } from '../../devices/public.ts';
import { licenceLine, raiseLicenceAlerts, servicesAtLimit } from '../../licences/public.ts';
import { increasedServices, licenceUseChanges, licenceUseOperations } from '../../licences/public.ts';
import { dashboardCounterOperations, deviceUserCounterChanges } from '../../metrics/public.ts';
import { groupStatsOperation } from '../../metrics/public.ts';
import type { DeviceUserRow } from '../format/index.ts';
import { changedFields, results, type ImportContext } from './context.ts';
import type { RowResult } from './results.ts';
import { IMPORT_ACTION } from '../import-action.ts';
import { importVersionWrites, unchangedSinceRead } from './import-versions.ts';

/** The fields a legacy row sets on a device user (what "no change" compares). */
const USER_FIELDS = ['group', 'services', 'expected_device_count', 'email', 'first_name', 'surname', 'is_active', 'onboard_date', 'offboard_date'] as const;

/**
 * A device-user row (docs/migration-format.md): a user new to Verity is created onboarded or offboarded, unless the
 * switch for that stops it (Ignore…); a legacy user is brought to the row (a change of state unless the switch stops
 * it: Superseded…); a user Verity manages itself is never changed. The user, its group's stats, the dashboard's legacy
 * counters and the licence use are written in one transaction; past a licence limit nothing is.
 */
export async function importDeviceUser(context: ImportContext, row: DeviceUserRow): Promise<RowResult> {
  const { deps, client, settings } = context;
  const reference = row.device_user_reference;
  const stored = await deps.table.get(keys.deviceUser.key(client, reference), { consistent: true });
  const before = stored === undefined ? undefined : readDeviceUser(stored);

  if (before !== undefined && !before.is_legacy) {
    return before.is_active
      ? results.warning(context, { entity: 'DeviceUser', type: 'UserAlreadyActiveInThePlatform', reference }, 'Onboarded on Verity: left as it is')
      : results.success(context, { entity: 'DeviceUser', type: 'NoChangeToUser', reference }, false, 'Managed on Verity (offboarded there): left as it is');
  }
  if (before === undefined) {
    if (row.is_active && settings.disable_onboarding) {
      return results.warning(context, { entity: 'DeviceUser', type: 'IgnoreOnboardingDisabled', reference }, 'Onboarding from the legacy platform is disabled: not created');
    }
    if (!row.is_active && settings.disable_offboarding) {
      return results.warning(context, { entity: 'DeviceUser', type: 'IgnoreOffboardingDisabled', reference }, 'Offboarding from the legacy platform is disabled: not created');
    }
  } else if (before.is_active !== row.is_active) {
    if (row.is_active && settings.disable_onboarding) {
      return results.warning(context, { entity: 'DeviceUser', type: 'SupersededOnboardingDisabled', reference }, 'Onboarded on the legacy platform, offboarded on Verity: onboarding from the legacy platform is disabled, Verity\'s record stands');
    }
    if (!row.is_active && settings.disable_offboarding) {
      return results.warning(context, { entity: 'DeviceUser', type: 'SupersededOffboardingDisabled', reference }, 'Offboarded on the legacy platform, onboarded on Verity: offboarding from the legacy platform is disabled, Verity\'s record stands');
    }
  }

  if ((await deps.table.get(keys.group.item(client, row.group), { consistent: true })) === undefined) {
    return results.error(context, { entity: 'DeviceUser', type: 'Error', reference }, `group: No group ${row.group} (on an earlier row or on Verity)`);
  }
  const after = userOf(context, row);
  const createdType = after.is_active ? 'UserCreatedOnboarded' : 'UserCreatedOffboarded';
  if (before !== undefined && stored !== undefined) {
    const changed = changedFields(before, after, USER_FIELDS);
    if (changed.length === 0) return results.success(context, { entity: 'DeviceUser', type: 'NoChangeToUser', reference }, false);
    const refused = await writeUser(context, { before, stored }, after);
    if (refused !== undefined) return results.error(context, { entity: 'DeviceUser', type: 'Error', reference }, refused);
    return results.success(context, { entity: 'DeviceUser', type: createdType, reference }, true, `Updated from the legacy platform: ${changed.join(', ')}`);
  }
  const refused = await writeUser(context, undefined, after);
  if (refused !== undefined) return results.error(context, { entity: 'DeviceUser', type: 'Error', reference }, refused);
  return results.success(context, { entity: 'DeviceUser', type: createdType, reference }, true);
}

function userOf(context: ImportContext, row: DeviceUserRow): DeviceUserItem {
  const { kind: _kind, ...fields } = row;
  void _kind;
  return DeviceUser.parse({ ...fields, client: context.client, is_legacy: true, updated_at: context.now, updated_by: context.actor });
}

/**
 * Writes the user from `before` to `after` with its counters in one transaction; an existing user (`read`, with the
 * item as stored) is kept as it was, a version under the import job's activity record (./import-versions.ts). Answers
 * why it was refused when a licence limit stops it (and raises the licence alert, as an onboarding on Verity does); a
 * change meanwhile throws ConditionFailedError for the importer to read the row's state again.
 */
async function writeUser(context: ImportContext, read: { before: DeviceUserItem; stored: TableItem } | undefined, after: DeviceUserItem): Promise<string | undefined> {
  const { deps, client } = context;
  const before = read?.before;
  const item = deviceUserToItem(client, after);
  const operations: TransactOperation[] = [
    { kind: 'put', item, condition: read === undefined ? { kind: 'item-not-exists' } : unchangedSinceRead(read.stored, item) },
    ...(read === undefined ? [] : importVersionWrites(context, { entity: 'device-user', reference: after.device_user_reference, stored: read.stored })),
  ];
  for (const [group, delta] of groupStatsChanges(before, after)) {
    const operation = groupStatsOperation(client, group, delta);
    if (operation !== undefined) operations.push(operation);
  }
  operations.push(...dashboardCounterOperations(client, deviceUserCounterChanges(before, after)));
  // An offboarded user is a retained record counted from its offboarding: its due marker with it (removed if onboarded).
  operations.push(...dueMarkerSync(client, deviceUserToItem(client, after)));
  const licenceChanges = licenceUseChanges(before, after);
  operations.push(...licenceUseOperations(client, licenceChanges));
  try {
    await deps.table.transactWrite(operations);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const refused = await servicesAtLimit(deps, client, increasedServices(licenceChanges));
    if (refused.length === 0) throw error;
    await raiseLicenceAlerts(deps, client, refused, { by: context.actor, action: IMPORT_ACTION });
    return refused.map(({ service, limit }) => licenceLine(service, limit)).join('; ');
  }
}
