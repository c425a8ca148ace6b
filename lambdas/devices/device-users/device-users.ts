import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Principal } from '#core/auth/principal.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { dashboardCounterOperations, deviceUserCounterChanges } from '../../metrics/public.ts';
import { groupStatsOperation } from '../../metrics/public.ts';
import { keys } from '#core/store/keys.ts';
import { readDevice, toDevice } from '#core/store/entities/device.ts';
import { deviceUserToItem, readDeviceUser, toDeviceUser, type DeviceUserItem } from '#core/store/entities/device-user.ts';
import { DeviceUser, type DeviceUserRequest } from '#shared/contract/entities/device-users.ts';
import { fullName, searchFilter, type DevicesDependencies } from '../device-lists.ts';
import { allOf, inScope, listPage, notDeletedByRetention, type QueryOf } from '#core/store/paging.ts';
import { dueMarkerSync } from '../../account-data/public.ts';
import type { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { versionWrites } from '../../audit/public.ts';
import { groupStatsChanges } from './device-user-changes.ts';
import { LicenceLimitError, raiseLicenceAlerts, servicesAtLimit } from '../../licences/public.ts';
import { increasedServices, licenceUseChanges, licenceUseOperations } from '../../licences/public.ts';

export const UNKNOWN_GROUP_LINE = 'body.group: Unknown group';

export type DeviceUserListQuery = QueryOf<typeof deviceEndpoints, 'admin.users.list'>;

/** Device users of the tenant (by group on gsi3 when a group is given); active-only, search and service filter the page. */
export function listDeviceUsers(caller: TenantCaller, query: DeviceUserListQuery) {
  const { deps: dependencies, tenant: client } = caller;
  const list = query.group === undefined ? keys.deviceUser.list(client) : keys.deviceUser.listByGroup(client, query.group);
  const keep = allOf(
    notDeletedByRetention,
    query.active_only === true ? (item) => readDeviceUser(item).is_active : undefined,
    searchFilter(query.search, readDeviceUser, (user) => [user.device_user_reference, user.email, user.first_name, user.surname, fullName(user)]),
    query.service === undefined ? undefined : (item) => readDeviceUser(item).services.some((service) => service === query.service),
  );
  const filters = { active_only: query.active_only, search: query.search, service: query.service };
  return listPage(dependencies, { client, query: list, filters, page: query, keep: inScope(caller.groupScope(), keep), toData: (item) => toDeviceUser(readDeviceUser(item)) });
}

const deviceUserNotFound = () => new NotFoundError('Device user not found');

/**
 * The device user item (read consistently: writes judge it) when it exists and its group is in the caller's scope;
 * otherwise the 404 of a missing user, so another group's user cannot be told apart from one that does not exist.
 */
export async function visibleDeviceUser(caller: TenantCaller, reference: string): Promise<DeviceUserItem> {
  const item = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, reference), { consistent: true });
  return caller.groupScope().visible(item === undefined ? undefined : readDeviceUser(item), deviceUserNotFound);
}

export async function getDeviceUser(caller: TenantCaller, reference: string): Promise<DeviceUser> {
  return toDeviceUser(await visibleDeviceUser(caller, reference));
}

/** A device user's devices (gsi2), optionally active (not deactivated) only. */
export async function listDeviceUserDevices(caller: TenantCaller, reference: string, query: QueryOf<typeof deviceEndpoints, 'admin.users.devices'>) {
  const { deps: dependencies, tenant: client } = caller;
  const keep = query.active_only === true ? (item: TableItem) => !readDevice(item).is_deactivated : undefined;
  return listPage(dependencies, {
    client,
    query: keys.device.listByDeviceUser(client, reference),
    filters: { active_only: query.active_only },
    page: query,
    keep: inScope(caller.groupScope(), keep),
    toData: (item) => toDevice(readDevice(item)),
  });
}

/** Attributes a device user item may gain that the item read lacked (every write stamps `updated_at` too). */
const DEVICE_USER_ATTRIBUTES = ['updated_at', 'offboard_date', 'retention_state', 'deleted_at', 'destroyed_at', 'first_name', 'surname', 'email'];

/**
 * The item as stored, read again at the write (the versions keep it exactly): the write is conditional on it being
 * unchanged, and it must still be the user `before` was read from (same `updated_at`), else the change is refused.
 */
async function storedAsRead(caller: TenantCaller, before: DeviceUserItem, conflictMessage: string): Promise<{ stored: TableItem; condition: WriteCondition }> {
  const stored = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, before.device_user_reference), { consistent: true });
  if (stored === undefined || readDeviceUser(stored).updated_at !== before.updated_at) throw new ConflictError(conflictMessage);
  return { stored, condition: unchangedItem(stored, DEVICE_USER_ATTRIBUTES) };
}

/**
 * Writes a device user from `before` (undefined = new) to `after`, with its groups' stats, the dashboard counters and
 * the licence use in ONE transaction. A failed condition: a service at its licence limit (409 naming each, plus an
 * ops alert), else the group vanished (400), else the user changed meanwhile (409).
 */
async function writeDeviceUser(caller: TenantCaller, change: { before: DeviceUserItem | undefined; after: DeviceUser }, conflictMessage: string): Promise<DeviceUser> {
  const { deps: dependencies, tenant: client, action } = caller;
  const { before, after } = change;
  const previous = before === undefined ? undefined : toDeviceUser(before);
  const item = deviceUserToItem(client, after);
  const asRead = before === undefined ? undefined : await storedAsRead(caller, before, conflictMessage);
  const operations: TransactOperation[] = [
    { kind: 'put', item, condition: asRead === undefined ? { kind: 'item-not-exists' } : asRead.condition },
    // The person as they were, kept with the change (a new user replaces nothing).
    ...(asRead === undefined ? [] : versionWrites(caller, [{ entity: 'device-user', reference: after.device_user_reference, stored: asRead.stored, change: 'updated' }])),
    // Offboarded: a retained record counted from the offboarding (its due marker); onboarded: off the due index.
    ...dueMarkerSync(client, item),
  ];
  for (const [group, delta] of groupStatsChanges(previous, after)) {
    const operation = groupStatsOperation(client, group, delta);
    if (operation !== undefined) operations.push(operation);
  }
  // A user the retention job disposed of left the dashboard's counts then; written again, it comes back into them.
  operations.push(...dashboardCounterOperations(client, deviceUserCounterChanges(before?.retention_state === undefined ? previous : undefined, after)));
  const licenceChanges = licenceUseChanges(previous, after);
  operations.push(...licenceUseOperations(client, licenceChanges));
  try {
    await dependencies.table.transactWrite(operations);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const refused = await servicesAtLimit(dependencies, client, increasedServices(licenceChanges));
    if (refused.length > 0) {
      await raiseLicenceAlerts(dependencies, client, refused, { by: after.updated_by ?? 'unknown', action });
      throw new LicenceLimitError(refused);
    }
    if (after.group !== undefined && (await dependencies.table.get(keys.group.item(client, after.group), { consistent: true })) === undefined) {
      throw new ValidationError([UNKNOWN_GROUP_LINE]);
    }
    throw new ConflictError(conflictMessage);
  }
  return after;
}

async function requireGroup(dependencies: Pick<DevicesDependencies, 'table'>, client: string, group: string): Promise<void> {
  if ((await dependencies.table.get(keys.group.item(client, group))) === undefined) throw new ValidationError([UNKNOWN_GROUP_LINE]);
}

/** The user `request` makes of `base`: active or not, stamped by whom and when, in the tenant. */
interface Stamped {
  isActive: boolean;
  base: Partial<DeviceUser>;
  now: string;
  principal: Principal | undefined;
  client: string;
}

function fromRequest(reference: string, request: DeviceUserRequest, { isActive, base, now, principal, client }: Stamped): DeviceUser {
  const { is_active: _ignored, ...fields } = request;
  void _ignored;
  return DeviceUser.parse({ ...base, ...fields, client, device_user_reference: reference, is_active: isActive, updated_at: now, updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal) });
}

/**
 * POST = onboard. A new user is created onboarded; an offboarded one is re-onboarded (is_active true, new
 * onboard_date, offboard_date cleared); an active one is a 409. The request's is_active is not read: POST onboards.
 */
export async function onboardDeviceUser(caller: TenantCaller, reference: string, request: DeviceUserRequest): Promise<{ user: DeviceUser; created: boolean }> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const scope = caller.groupScope();
  await requireGroup(dependencies, client, request.group);
  await scope.require(request.group);
  const stored = await dependencies.table.get(keys.deviceUser.key(client, reference), { consistent: true });
  const before = stored === undefined ? undefined : readDeviceUser(stored);
  // An existing user of another group is not re-onboarded from here, nor told apart from a conflict: 409 either way.
  if (before !== undefined && (before.is_active === true || !(await scope.allows(before.group)))) {
    throw new ConflictError('Device user already exists and is onboarded');
  }
  const now = dependencies.clock.now().toISOString();
  const previous: Partial<DeviceUser> = before === undefined ? {} : toDeviceUser(before);
  const { offboard_date: _cleared, ...kept } = previous;
  void _cleared;
  const after = fromRequest(reference, request, { isActive: true, base: { ...kept, onboard_date: now }, now, principal, client });
  const user = await writeDeviceUser(caller, { before, after }, 'Device user already exists and is onboarded');
  return { user, created: before === undefined };
}

/** PUT: replaces the user's fields; is_active false offboards, true re-onboards (clearing offboard_date). Unknown: 404. */
export async function updateDeviceUser(caller: TenantCaller, reference: string, request: DeviceUserRequest): Promise<DeviceUser> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const scope = caller.groupScope();
  await requireGroup(dependencies, client, request.group);
  const before = await visibleDeviceUser(caller, reference);
  // A move needs the action on the new group too.
  await scope.require(request.group);
  const previous = toDeviceUser(before);
  const now = dependencies.clock.now().toISOString();
  const { offboard_date: offboardDate, onboard_date: onboardDate, ...kept } = previous;
  const dates =
    request.is_active === previous.is_active
      ? { ...(onboardDate === undefined ? {} : { onboard_date: onboardDate }), ...(offboardDate === undefined ? {} : { offboard_date: offboardDate }) }
      : request.is_active
        ? { onboard_date: now }
        : { ...(onboardDate === undefined ? {} : { onboard_date: onboardDate }), offboard_date: now };
  const after = fromRequest(reference, request, { isActive: request.is_active, base: { ...kept, ...dates }, now, principal, client });
  return writeDeviceUser(caller, { before, after }, 'Device user changed meanwhile, read it again');
}

/** DELETE = offboard: is_active false, offboard_date now; the record stays. Unknown: 404; already offboarded: no change. */
export async function offboardDeviceUser(caller: TenantCaller, reference: string): Promise<DeviceUser> {
  const { deps: dependencies, principal } = caller;
  const before = await visibleDeviceUser(caller, reference);
  const previous = toDeviceUser(before);
  if (!previous.is_active) return previous;
  const now = dependencies.clock.now().toISOString();
  const after = DeviceUser.parse({ ...previous, is_active: false, offboard_date: now, updated_at: now, updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal) });
  return writeDeviceUser(caller, { before, after }, 'Device user changed meanwhile, try again');
}
