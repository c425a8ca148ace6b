import type { TableItem, TransactOperation } from '../../core/ports/table-store.ts';
import { deviceToItem, readDevice, type DeviceItem } from '../../core/store/entities/device.ts';
import { readDeviceUser } from '../../core/store/entities/device-user.ts';
import { keys } from '../../core/store/keys.ts';
import { dashboardCounterOperations, deviceCounterChanges } from '../../metrics/public.ts';
import { deviceGroupStatsOperations } from '../../metrics/public.ts';
import type { DeviceRow } from '../format/index.ts';
import { changedFields, results, type ImportContext } from './context.ts';
import type { RowResult } from './results.ts';
import { importVersionWrites, unchangedSinceRead } from './import-versions.ts';

/** The fields a legacy row decides on a device (what "no change" compares). */
const DEVICE_FIELDS = [
  'device_user_reference',
  'group',
  'services',
  'imeis',
  'email',
  'first_name',
  'surname',
  'is_deactivated',
  'deactivation_date',
  'activated_at',
  'legacy_phone_number',
  'model',
  'os_version',
  'app_version',
  'serial_number',
] as const;

/**
 * A device row (docs/migration-format.md). A device already activated on Verity is never changed; a legacy one is
 * written as the row says, its group and services following its holder as device authentication sets them. The
 * device, the dashboard's legacy counters and its group's `actual_devices` move in one transaction.
 */
export async function importDevice(context: ImportContext, row: DeviceRow, duplicate: boolean): Promise<RowResult> {
  const { deps, client } = context;
  const reference = row.device_reference;
  if (duplicate) {
    return results.error(context, { entity: 'Device', type: 'DuplicateDeviceReference', reference }, 'An earlier row of this file has this device reference: this row is not imported');
  }
  const stored = await deps.table.get(keys.device.key(client, reference), { consistent: true });
  const before = stored === undefined ? undefined : readDevice(stored);
  if (before !== undefined && !before.is_legacy) {
    return results.warning(context, { entity: 'Device', type: 'DeviceAlreadyActiveInThePlatform', reference }, 'Activated on Verity: left as it is');
  }

  let holder: ReturnType<typeof readDeviceUser> | undefined;
  if (row.device_user_reference !== undefined) {
    const item = await deps.table.get(keys.deviceUser.key(client, row.device_user_reference), { consistent: true });
    if (item === undefined) {
      return results.error(context, { entity: 'Device', type: 'Error', reference }, `device_user_reference: No device user ${row.device_user_reference} (on an earlier row or on Verity)`);
    }
    holder = readDeviceUser(item);
  }

  const after: DeviceItem = {
    ...(before ?? {}),
    client,
    device_reference: reference,
    ...(holder === undefined ? {} : { device_user_reference: holder.device_user_reference }),
    ...(holder?.group === undefined ? {} : { group: holder.group }),
    // Only an onboarded holder's services are enabled (as on authentication).
    services: holder?.is_active === true ? holder.services : [],
    imeis: row.imeis,
    ...(holder?.email === undefined ? {} : { email: holder.email }),
    ...(holder?.first_name === undefined ? {} : { first_name: holder.first_name }),
    ...(holder?.surname === undefined ? {} : { surname: holder.surname }),
    is_deactivated: row.is_deactivated,
    is_legacy: true,
    phone_numbers: before?.phone_numbers ?? [],
    updated_at: context.now,
    updated_by: context.actor,
  };
  // The row is the whole truth about a legacy device: what it leaves out is not kept from an earlier import.
  for (const field of ['device_user_reference', 'group', 'email', 'first_name', 'surname'] as const) if (holder === undefined || holder[field] === undefined) delete after[field];
  for (const field of ['deactivation_date', 'activated_at', 'legacy_phone_number', 'model', 'os_version', 'app_version', 'serial_number'] as const) {
    const value = row[field];
    if (value === undefined) delete after[field];
    else after[field] = value;
  }

  if (before !== undefined && stored !== undefined) {
    const changed = changedFields(before, after, DEVICE_FIELDS);
    if (changed.length === 0) return results.success(context, { entity: 'Device', type: 'NoChangeToDevice', reference }, false);
    // Written by this migration already, from other data: an earlier row of the file, read before a continuation
    // (a new importer) and so not in the importer's memory.
    if (before.updated_by === context.actor) {
      return results.error(context, { entity: 'Device', type: 'DuplicateDeviceReference', reference }, `An earlier row of this file has this device reference with other data (${changed.join(', ')}): this row is not imported`);
    }
    await writeDevice(context, { before, stored }, after);
    return results.success(context, { entity: 'Device', type: createdType(after), reference }, true, `Updated from the legacy platform: ${changed.join(', ')}`);
  }
  await writeDevice(context, undefined, after);
  return results.success(context, { entity: 'Device', type: createdType(after), reference }, true);
}

const createdType = (device: DeviceItem) => (device.is_deactivated ? 'DeviceCreatedDeactivated' : 'DeviceCreatedActivated');

/** The device and its counters in one transaction; a device already stored (`read`) is kept as it was, a version. */
async function writeDevice(context: ImportContext, read: { before: DeviceItem; stored: TableItem } | undefined, after: DeviceItem): Promise<void> {
  const { deps, client } = context;
  const before = read?.before;
  const item = deviceToItem(client, after);
  const operations: TransactOperation[] = [
    { kind: 'put', item, condition: read === undefined ? { kind: 'item-not-exists' } : unchangedSinceRead(read.stored, item) },
    ...(read === undefined ? [] : importVersionWrites(context, { entity: 'device-assignment', reference: after.device_reference, stored: read.stored })),
    ...dashboardCounterOperations(client, deviceCounterChanges(before, after)),
  ];
  // As on authentication: actual_devices and per-service active_devices move with the device (a group gone, or a
  // counter already at 0, is left out rather than refusing the device).
  operations.push(...(await deviceGroupStatsOperations(deps, client, before, after)));
  // A change meanwhile fails the condition (ConditionFailedError): the importer reads the row's state again.
  await deps.table.transactWrite(operations);
}
