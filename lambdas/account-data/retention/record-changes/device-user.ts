import { ConditionFailedError, type TransactOperation } from '#core/ports/table-store.ts';
import { readDevice, readDeviceNumbers } from '#core/store/entities/device.ts';
import { readPhoneNumber } from '#core/store/entities/phone-number.ts';
import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { isHeld } from '../../legal-holds/coverage.ts';
import { dashboardCounterOperations, deviceUserCounterChanges } from '../../../metrics/public.ts';
import type { DisposeDependencies } from '../dispose.ts';
import { alsoWhen, type RecordChanges } from './shared.ts';
import { removeRecordVersions } from './version-removals.ts';

/**
 * DeviceUserData: an offboarded device user (a person, not an event), counted from the offboarding (`offboard_date`).
 * An onboarded user is never due; onboarding again takes the marker away. Not disposed of while a legal hold names
 * the person (a hold on a device user covers their own record too) or while a device not deactivated still names
 * them as its user ('active').
 *
 * - **Deleted** marks the user (`retention_state`): out of the device-user lists and out of the dashboard's offboarded
 *   count, in the same transaction. Licences and group stats count onboarded users only, so they do not move.
 * - **Destroyed** removes the personal fields (first name, surname, email) and keeps the item under its reference:
 *   recordings, devices, the audit trails and disposal records still name it. In the same transaction it deletes the
 *   phone-number items (`keys.phoneNumber`) that still name the person, each conditional on that, so a number since
 *   taken by someone else stays theirs. Found by Query: the person's numbers list (gsi1), and, for items written
 *   before that list existed, the numbers the devices listed under the person record (`phone_numbers`). The copies
 *   of the person's names and email that device authentication wrote onto their devices go too, and so do the
 *   versions the person's changes kept (version-removals.ts): each holds the names an erasure removes.
 *
 * Retention stamps `updated_at`, so a portal write that read the user before (conditional on it) is refused rather
 * than bringing a disposed-of user back with the old counts; and the write is conditional on the user read.
 */
export const PERSONAL_FIELDS = ['first_name', 'surname', 'email'] as const;

/**
 * Phone-number deletes that go in the destruction's own transaction (DynamoDB takes 100 operations; the rest of it is
 * the user, its counters, its disposal record and its markers). A person has a handful of numbers; any beyond this go
 * first, in transactions of their own, each checking the user is still as read.
 */
const NUMBERS_IN_TRANSACTION = 60;
/** Device items whose copy of the person's names goes in the same transaction; any beyond go first, like numbers. */
const DEVICE_COPIES_IN_TRANSACTION = 20;
const NUMBERS_PER_TRANSACTION = 99;

export function deviceUserEnded(user: RetainedItemOf<'DeviceUser'>): boolean {
  return user.is_active === false && user.offboard_date !== undefined;
}

async function hasAssignedDevice(deps: Parameters<NonNullable<RecordChanges['refusal']>>[0], client: string, reference: string): Promise<boolean> {
  for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, reference), 100)) {
    if (page.some((item) => readDevice(item).is_deactivated !== true)) return true;
  }
  return false;
}

/** The phone-number items that still name the person, by Query only (their list, and their devices' numbers). */
async function numbersOf(deps: DisposeDependencies, client: string, reference: string): Promise<string[]> {
  const numbers = new Set<string>();
  for await (const page of eachPage(deps.table, keys.phoneNumber.listByDeviceUser(client, reference), 100)) {
    for (const item of page) numbers.add(readPhoneNumber(item).phone_number);
  }
  // Items written before the list existed carry no gsi1 key: the devices listed under the person name them.
  for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, reference), 100)) {
    for (const device of page) for (const entry of readDeviceNumbers(device).phone_numbers) numbers.add(entry.phone_number);
  }
  const items = await deps.table.batchGet([...numbers].map((number) => keys.phoneNumber.key(client, number)), { consistent: true });
  return items.map(readPhoneNumber).filter((entry) => entry.device_user_reference === reference).map((entry) => entry.phone_number);
}

/**
 * Device authentication copies the person's names and email onto each device it signs in for them (the device list
 * shows who holds it). Destroying the person removes those copies from the devices that still name them, each
 * conditional on that, so a device handed to someone else since keeps its new holder's.
 */
async function deviceCopyRemovals(deps: DisposeDependencies, client: string, reference: string): Promise<TransactOperation[]> {
  const removals: TransactOperation[] = [];
  for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, reference), 100)) {
    for (const device of page.map(readDevice)) {
      if (!PERSONAL_FIELDS.some((field) => device[field] !== undefined)) continue;
      removals.push({
        kind: 'update',
        key: keys.device.key(client, device.device_reference),
        update: { remove: [...PERSONAL_FIELDS] },
        condition: { kind: 'expression', expression: '#user = :user', names: { '#user': 'device_user_reference' }, values: { ':user': reference } },
      });
    }
  }
  return removals;
}

/** Device copies past the transaction's room, removed ahead of it while the user is still as read. */
async function removeExtraDeviceCopies(deps: DisposeDependencies, extras: readonly TransactOperation[], user: TransactOperation): Promise<void> {
  for (const removal of extras) {
    try {
      await deps.table.transactWrite([user, removal]);
    } catch (error) {
      // The device changed hands meanwhile (its copy is the new holder's), or the user changed (the disposal is refused).
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
}

function numberRemovals(client: string, reference: string, numbers: readonly string[]): TransactOperation[] {
  return numbers.map((number) => ({
    kind: 'delete',
    key: keys.phoneNumber.key(client, number),
    condition: { kind: 'expression', expression: '#user = :user', names: { '#user': 'device_user_reference' }, values: { ':user': reference } },
  }));
}

/** Whose numbers: the tenant and the device user. */
interface NumbersOwner {
  client: string;
  reference: string;
}

/** Numbers past the transaction's room, removed ahead of it while the user is still as read. */
async function removeExtraNumbers(deps: DisposeDependencies, { client, reference }: NumbersOwner, numbers: readonly string[], user: TransactOperation): Promise<void> {
  for (let start = 0; start < numbers.length; start += NUMBERS_PER_TRANSACTION) {
    try {
      await deps.table.transactWrite([user, ...numberRemovals(client, reference, numbers.slice(start, start + NUMBERS_PER_TRANSACTION))]);
    } catch (error) {
      // A number moved meanwhile (read again below), or the user changed (the disposal's own transaction is refused).
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
}

/** The person's numbers, fewer than the transaction's room: those beyond it removed first, read again after. */
async function numbersToRemove(deps: DisposeDependencies, client: string, reference: string, user: TransactOperation): Promise<string[]> {
  let numbers = await numbersOf(deps, client, reference);
  for (let attempt = 0; numbers.length > NUMBERS_IN_TRANSACTION && attempt < 3; attempt += 1) {
    await removeExtraNumbers(deps, { client, reference }, numbers.slice(NUMBERS_IN_TRANSACTION), user);
    numbers = await numbersOf(deps, client, reference);
  }
  return numbers.slice(0, NUMBERS_IN_TRANSACTION);
}

export const deviceUserChanges: RecordChanges = {
  ended: (item) => deviceUserEnded(readRetainedAs('DeviceUser', item)),
  // Every disposal of a device user moves the tenant's dashboard counters: a transaction may write an item once.
  ownTransaction: true,
  refusal: async (deps, client, item) => {
    const reference = readRetainedAs('DeviceUser', item).device_user_reference;
    if (await isHeld(deps, client, { targetType: 'DeviceUser', target: reference })) return 'held';
    if (await hasAssignedDevice(deps, client, reference)) return 'active';
    return undefined;
  },
  change: async (deps, client, item, { action, condition, disposal }) => {
    const now = disposal.disposed_at;
    const key = { pk: item.pk, sk: item.sk };
    const read = readRetainedAs('DeviceUser', item);
    const asRead = alsoWhen(condition, {
      expression: read.updated_at !== undefined ? '#active = :offboarded AND #updated = :updated' : '#active = :offboarded AND attribute_not_exists(#updated)',
      names: { '#active': 'is_active', '#updated': 'updated_at' },
      values: { ':offboarded': false, ...(read.updated_at !== undefined ? { ':updated': read.updated_at } : {}) },
    });
    // dispose.ts' RETENTION_ACTOR (not imported: dispose.ts imports this module).
    const stamp = { updated_at: now, updated_by: 'retention' };
    // Counted as offboarded until retention first disposes of it (a rule that destroys without deleting: at destruction).
    const counted = read.retention_state === undefined;
    const user = { group: read.group, is_active: false, is_legacy: read.is_legacy };
    const counters: TransactOperation[] = counted ? dashboardCounterOperations(client, deviceUserCounterChanges(user, undefined)) : [];
    const change: TransactOperation =
      action === 'Deleted'
        ? { kind: 'update', key, update: { set: { retention_state: 'Deleted', deleted_at: now, ...stamp } }, condition: asRead }
        : { kind: 'update', key, update: { set: { retention_state: 'Destroyed', destroyed_at: now, ...stamp }, remove: [...PERSONAL_FIELDS] }, condition: asRead };
    if (action === 'Deleted') return [change, ...counters];
    const reference = read.device_user_reference;
    const userAsRead: TransactOperation = { kind: 'check', key, condition: asRead };
    const copies = await deviceCopyRemovals(deps, client, reference);
    await removeExtraDeviceCopies(deps, copies.slice(DEVICE_COPIES_IN_TRANSACTION), userAsRead);
    await removeRecordVersions(deps, key, asRead);
    const numbers = await numbersToRemove(deps, client, reference, userAsRead);
    return [change, ...counters, ...numberRemovals(client, reference, numbers), ...copies.slice(0, DEVICE_COPIES_IN_TRANSACTION)];
  },
};
