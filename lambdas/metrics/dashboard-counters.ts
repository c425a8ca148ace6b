import type { Dashboard } from '#shared/contract/entities/dashboard.ts';
import type { TableItem, TransactOperation } from '../core/ports/table-store.ts';
import { DASHBOARD_COUNTER_PREFIX, readDashboardCounters } from '../core/store/entities/dashboard-counters.ts';
import { ENTITY, keys, part } from '../core/store/keys.ts';

/**
 * Dashboard counters (spec Dashboard), kept at WRITE time on one item per tenant (`keys.device.dashboardCounters`).
 *
 * Every write that moves a device or a device user between dashboard states adds `dashboardCounterOperations(...)`
 * to its own transaction, so the state change and its counts commit together; the dashboard is then one GetItem,
 * whatever the fleet size (the dashboard bench's target).
 *
 * Counters are FLAT numeric attributes (`dev_activated`, `usr_offboarded`, `appv#<version>`, `osv#<version>`):
 * DynamoDB's ADD creates a missing top-level number (and the missing item) but refuses a path under a missing map,
 * so flat attributes let the first write of a tenant and of a new version be the same single ADD as every other.
 *
 * Decision: no "not below zero" condition, unlike group stats. A counter that drifted (an item written outside a
 * service, a restore) must never refuse a device's authentication or an offboarding; reads clamp at zero and a
 * recount job can repair. A transaction may touch an item only once, so callers merge all their changes into ONE
 * call per transaction (`mergeDashboardChanges`).
 *
 * Each group also keeps its share of the same counters (`keys.device.groupDashboardCounters`), ADDed in the same
 * transaction from the group of the device or device user before and after the write: a group-limited role's
 * dashboard is the sum of its groups' shares (one Query of the tenant's shares, a bounded number of groups), never a
 * count over the fleet. A device or user without a group counts in the tenant's item only.
 */

export const DEVICE_STATES = ['activated', 'pending', 'deactivated', 'legacyActivated', 'legacyDeactivated'] as const;
export type DeviceDashboardState = (typeof DEVICE_STATES)[number];
export const USER_STATES = ['onboarded', 'offboarded', 'legacyOnboarded', 'legacyOffboarded'] as const;
export type UserDashboardState = (typeof USER_STATES)[number];

/** Whole-number increments (negative to decrement); absent or zero counters stay as they are. */
export interface CounterChanges {
  devices?: Partial<Record<DeviceDashboardState, number>>;
  users?: Partial<Record<UserDashboardState, number>>;
  /** By version string. */
  app_versions?: Record<string, number>;
  os_versions?: Record<string, number>;
}

/** The tenant's changes and, by group name, each group's share of them. */
export interface DashboardChanges extends CounterChanges {
  groups?: Record<string, CounterChanges>;
}

const { device: DEVICE_PREFIX, user: USER_PREFIX, appVersion: APP_VERSION_PREFIX, osVersion: OS_VERSION_PREFIX } = DASHBOARD_COUNTER_PREFIX;
/** Version strings come from phones: bound what becomes an attribute name (a longer one counts under its prefix). */
const MAX_VERSION_LENGTH = 64;

function versionAttribute(prefix: string, version: string): string {
  return `${prefix}${part(version.slice(0, MAX_VERSION_LENGTH))}`;
}

function decodeVersion(encoded: string): string {
  return encoded.replace(/%23/g, '#').replace(/%25/g, '%');
}

/** The counter attributes and increments of a change (zeros left out). Throws on a fraction or NaN (a bug). */
export function dashboardIncrements(changes: CounterChanges): Record<string, number> {
  const add: Record<string, number> = {};
  const put = (attribute: string, value: number | undefined) => {
    if (value === undefined || value === 0) return;
    if (!Number.isSafeInteger(value)) throw new Error(`Dashboard counter change ${attribute} must be a whole number`);
    add[attribute] = (add[attribute] ?? 0) + value;
    if (add[attribute] === 0) delete add[attribute];
  };
  for (const state of DEVICE_STATES) put(`${DEVICE_PREFIX}${state}`, changes.devices?.[state]);
  for (const state of USER_STATES) put(`${USER_PREFIX}${state}`, changes.users?.[state]);
  for (const [version, value] of Object.entries(changes.app_versions ?? {})) put(versionAttribute(APP_VERSION_PREFIX, version), value);
  for (const [version, value] of Object.entries(changes.os_versions ?? {})) put(versionAttribute(OS_VERSION_PREFIX, version), value);
  return add;
}

/**
 * The change as transaction steps (at most one: one ADD on the tenant's counter item), to spread into the
 * caller's `transactWrite`. Empty when nothing changes.
 */
export function dashboardCounterOperations(client: string, changes: DashboardChanges): TransactOperation[] {
  const operations: TransactOperation[] = [];
  const add = dashboardIncrements(changes);
  // The entity tag rides along as a SET, so the item an ADD may create is tagged like every other item.
  if (Object.keys(add).length > 0) {
    operations.push({ kind: 'update', key: keys.device.dashboardCounters(client), update: { set: { entity: ENTITY.dashboardCounters }, add } });
  }
  for (const [group, share] of Object.entries(changes.groups ?? {})) {
    const groupAdd = dashboardIncrements(share);
    if (Object.keys(groupAdd).length === 0) continue;
    operations.push({
      kind: 'update',
      key: keys.device.groupDashboardCounters(client, group),
      update: { set: { entity: ENTITY.dashboardCounters, group }, add: groupAdd },
    });
  }
  return operations;
}

/** Sums changes (several moves in one transaction must share the single counter operation). */
export function mergeDashboardChanges(...all: DashboardChanges[]): DashboardChanges {
  const merged = mergeCounterChanges(...all);
  const groups: Record<string, CounterChanges> = {};
  for (const changes of all) {
    for (const [group, share] of Object.entries(changes.groups ?? {})) groups[group] = mergeCounterChanges(groups[group] ?? {}, share);
  }
  return { ...merged, groups };
}

function mergeCounterChanges(...all: CounterChanges[]): Required<CounterChanges> {
  const merged: Required<CounterChanges> = { devices: {}, users: {}, app_versions: {}, os_versions: {} };
  const sum = <K extends string>(into: Partial<Record<K, number>>, from: Partial<Record<K, number>> | undefined) => {
    for (const [key, value] of Object.entries(from ?? {}) as [K, number | undefined][]) {
      into[key] = (into[key] ?? 0) + (value ?? 0);
    }
  };
  for (const changes of all) {
    sum(merged.devices, changes.devices);
    sum(merged.users, changes.users);
    sum(merged.app_versions, changes.app_versions);
    sum(merged.os_versions, changes.os_versions);
  }
  return merged;
}

/** The device fields that decide its dashboard state and versions. */
export interface DeviceCounterFields {
  /** The device's group: its share counts there too. */
  group?: string;
  is_deactivated?: boolean;
  is_legacy?: boolean;
  activated_at?: string;
  app_version?: string;
  os_version?: string;
}

/**
 * A device's dashboard state. Legacy devices (migrated, not yet activated on this platform) count apart; a device
 * never activated (enrolled, no successful authentication yet) is pending.
 */
export function deviceDashboardState(device: DeviceCounterFields): DeviceDashboardState {
  if (device.is_legacy === true) return device.is_deactivated === true ? 'legacyDeactivated' : 'legacyActivated';
  if (device.is_deactivated === true) return 'deactivated';
  return device.activated_at === undefined ? 'pending' : 'activated';
}

/**
 * The counter change of a device moving from `before` to `after` (undefined = does not exist). Decision: app and OS
 * versions count the devices not deactivated (the fleet in use), so a deactivation also takes its versions out.
 */
export function deviceCounterChanges(before: DeviceCounterFields | undefined, after: DeviceCounterFields | undefined): DashboardChanges {
  const tenant: Required<CounterChanges> = { devices: {}, users: {}, app_versions: {}, os_versions: {} };
  const groups: Record<string, Required<CounterChanges>> = {};
  const count = (changes: Required<CounterChanges>, device: DeviceCounterFields, sign: 1 | -1) => {
    const state = deviceDashboardState(device);
    changes.devices[state] = (changes.devices[state] ?? 0) + sign;
    if (device.is_deactivated === true) return;
    if (device.app_version !== undefined) changes.app_versions[device.app_version] = (changes.app_versions[device.app_version] ?? 0) + sign;
    if (device.os_version !== undefined) changes.os_versions[device.os_version] = (changes.os_versions[device.os_version] ?? 0) + sign;
  };
  const apply = (device: DeviceCounterFields | undefined, sign: 1 | -1) => {
    if (device === undefined) return;
    count(tenant, device, sign);
    const group = groupOf(device);
    if (group !== undefined) count((groups[group] ??= { devices: {}, users: {}, app_versions: {}, os_versions: {} }), device, sign);
  };
  apply(before, -1);
  apply(after, 1);
  return { ...tenant, groups };
}

function groupOf(fields: { group?: string | undefined }): string | undefined {
  return fields.group !== undefined && fields.group.length > 0 ? fields.group : undefined;
}

/** The device-user fields that decide its dashboard state. */
export interface DeviceUserCounterFields {
  /** The user's group: its share counts there too. */
  group?: string | undefined;
  is_active: boolean;
  is_legacy?: boolean;
}

export function deviceUserDashboardState(user: DeviceUserCounterFields): UserDashboardState {
  if (user.is_legacy === true) return user.is_active ? 'legacyOnboarded' : 'legacyOffboarded';
  return user.is_active ? 'onboarded' : 'offboarded';
}

/** The counter change of a device user moving from `before` to `after` (undefined = does not exist). */
export function deviceUserCounterChanges(
  before: DeviceUserCounterFields | undefined,
  after: DeviceUserCounterFields | undefined,
): DashboardChanges {
  const users: Partial<Record<UserDashboardState, number>> = {};
  const groups: Record<string, { users: Partial<Record<UserDashboardState, number>> }> = {};
  const apply = (user: DeviceUserCounterFields | undefined, sign: 1 | -1) => {
    if (user === undefined) return;
    const state = deviceUserDashboardState(user);
    users[state] = (users[state] ?? 0) + sign;
    const group = groupOf(user);
    if (group === undefined) return;
    const share = (groups[group] ??= { users: {} }).users;
    share[state] = (share[state] ?? 0) + sign;
  };
  apply(before, -1);
  apply(after, 1);
  return { users, groups };
}

/** A stored counter as the dashboard counts it: a drifted negative (see the decision above) reads as 0. */
const clamped = (value: number) => Math.max(0, Math.trunc(value));

/** The counters of several items added up (the shares of a role's visible groups), to read as one. */
export function sumCounterItems(items: ReadonlyArray<Partial<TableItem>>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const item of items) {
    for (const [attribute, value] of Object.entries(readDashboardCounters(item).counters)) total[attribute] = (total[attribute] ?? 0) + clamped(value);
  }
  return total;
}

/** The spec's Dashboard from the counter item (missing item or counters are 0; versions with a count, most first). */
export function readDashboard(item: Partial<TableItem> | undefined): Dashboard {
  const counters = item === undefined ? {} : readDashboardCounters(item).counters;
  const count = (attribute: string) => clamped(counters[attribute] ?? 0);
  const versions = (prefix: string) =>
    Object.keys(counters)
      .filter((attribute) => attribute.startsWith(prefix))
      .map((attribute) => ({ version: decodeVersion(attribute.slice(prefix.length)), count: count(attribute) }))
      .filter((entry) => entry.count > 0)
      .sort((a, b) => b.count - a.count || a.version.localeCompare(b.version));
  const devices = Object.fromEntries(DEVICE_STATES.map((state) => [state, count(`${DEVICE_PREFIX}${state}`)]));
  const users = Object.fromEntries(USER_STATES.map((state) => [state, count(`${USER_PREFIX}${state}`)]));
  return {
    devices: devices as Dashboard['devices'],
    users: users as Dashboard['users'],
    app_versions: versions(APP_VERSION_PREFIX),
    os_versions: versions(OS_VERSION_PREFIX),
  };
}
