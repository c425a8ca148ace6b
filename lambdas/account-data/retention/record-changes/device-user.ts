import type { TransactOperation } from '#core/ports/table-store.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { isHeld } from '../../legal-holds/coverage.ts';
import { dashboardCounterOperations, deviceUserCounterChanges } from '../../../metrics/dashboard-counters.ts';
import { alsoWhen, type RecordChanges } from './shared.ts';

/**
 * DeviceUserData: an offboarded device user (a person, not an event), counted from the offboarding (`offboard_date`).
 * An onboarded user is never due; onboarding again takes the marker away. Not disposed of while a legal hold names
 * the person (a hold on a device user covers their own record too) or while a device not deactivated still names
 * them as its user ('active').
 *
 * - **Deleted** marks the user (`retention_state`): out of the device-user lists and out of the dashboard's offboarded
 *   count, in the same transaction. Licences and group stats count onboarded users only, so they do not move.
 * - **Destroyed** removes the personal fields (first name, surname, email) and keeps the item under its reference:
 *   recordings, devices, the audit trails and disposal records still name it. (A device user has no phone number
 *   field; the numbers device authentication looks up belong to the devices and are not listable per person.)
 *
 * Retention stamps `updated_at`, so a portal write that read the user before (conditional on it) is refused rather
 * than bringing a disposed-of user back with the old counts; and the write is conditional on the user read.
 */
export const PERSONAL_FIELDS = ['first_name', 'surname', 'email'] as const;

export function deviceUserEnded(item: Readonly<Record<string, unknown>>): boolean {
  return item.is_active === false && typeof item.offboard_date === 'string';
}

async function hasAssignedDevice(deps: Parameters<NonNullable<RecordChanges['refusal']>>[0], client: string, reference: string): Promise<boolean> {
  for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, reference), 100)) {
    if (page.some((item) => readDevice(item).is_deactivated !== true)) return true;
  }
  return false;
}

export const deviceUserChanges: RecordChanges = {
  ended: deviceUserEnded,
  // Every disposal of a device user moves the tenant's dashboard counters: a transaction may write an item once.
  ownTransaction: true,
  refusal: async (deps, client, item) => {
    const reference = String(item.device_user_reference);
    if (await isHeld(deps, client, { targetType: 'DeviceUser', target: reference })) return 'held';
    if (await hasAssignedDevice(deps, client, reference)) return 'active';
    return undefined;
  },
  change: (_deps, client, item, pass, condition, disposal) => {
    const now = disposal.disposed_at;
    const key = { pk: item.pk, sk: item.sk };
    const asRead = alsoWhen(condition, {
      expression: typeof item.updated_at === 'string' ? '#active = :offboarded AND #updated = :updated' : '#active = :offboarded AND attribute_not_exists(#updated)',
      names: { '#active': 'is_active', '#updated': 'updated_at' },
      values: { ':offboarded': false, ...(typeof item.updated_at === 'string' ? { ':updated': item.updated_at } : {}) },
    });
    // dispose.ts' RETENTION_ACTOR (not imported: dispose.ts imports this module).
    const stamp = { updated_at: now, updated_by: 'retention' };
    // Counted as offboarded until retention first disposes of it (a rule that destroys without deleting: at destruction).
    const counted = item.retention_state === undefined;
    const user = { group: typeof item.group === 'string' ? item.group : undefined, is_active: false, is_legacy: item.is_legacy === true };
    const counters: TransactOperation[] = counted ? dashboardCounterOperations(client, deviceUserCounterChanges(user, undefined)) : [];
    const change: TransactOperation =
      pass.action === 'Deleted'
        ? { kind: 'update', key, update: { set: { retention_state: 'Deleted', deleted_at: now, ...stamp } }, condition: asRead }
        : { kind: 'update', key, update: { set: { retention_state: 'Destroyed', destroyed_at: now, ...stamp }, remove: [...PERSONAL_FIELDS] }, condition: asRead };
    return [change, ...counters];
  },
};
