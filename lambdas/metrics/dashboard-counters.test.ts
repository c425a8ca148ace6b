import { Dashboard } from '#shared/contract/entities/dashboard.ts';
import { describe, expect, it } from 'vitest';
import {
  dashboardCounterOperations,
  dashboardIncrements,
  deviceCounterChanges,
  deviceDashboardState,
  deviceUserCounterChanges,
  mergeDashboardChanges,
  readDashboard,
  sumCounterItems,
} from './dashboard-counters.ts';
import { keys } from '../core/store/keys.ts';

describe('dashboardIncrements', () => {
  it('maps changes onto flat attributes, summing and leaving zeros out', () => {
    expect(
      dashboardIncrements({ devices: { activated: -1, deactivated: 1, pending: 0 }, users: { onboarded: 1 }, app_versions: { '1.2': 1 }, os_versions: { 'a#b': -1 } }),
    ).toEqual({ dev_activated: -1, dev_deactivated: 1, usr_onboarded: 1, 'appv#1.2': 1, 'osv#a%23b': -1 });
  });

  it('refuses fractions and NaN', () => {
    expect(() => dashboardIncrements({ devices: { activated: 0.5 } })).toThrow(/whole number/);
    expect(() => dashboardIncrements({ users: { onboarded: Number.NaN } })).toThrow(/whole number/);
  });

  it('bounds the attribute name a hostile version string becomes', () => {
    const [attribute] = Object.keys(dashboardIncrements({ app_versions: { ['9'.repeat(5000)]: 1 } }));
    expect(attribute?.length).toBeLessThanOrEqual(5 + 64);
  });
});

describe('dashboardCounterOperations', () => {
  it('is one ADD on the tenant counter item, tagged with its entity', () => {
    expect(dashboardCounterOperations('demo', { users: { onboarded: 1, offboarded: -1 } })).toEqual([
      {
        kind: 'update',
        key: keys.device.dashboardCounters('demo'),
        update: { set: { entity: 'DashboardCounters' }, add: { usr_onboarded: 1, usr_offboarded: -1 } },
      },
    ]);
  });

  it('is empty when nothing changes (a move within one state)', () => {
    expect(dashboardCounterOperations('demo', deviceUserCounterChanges({ is_active: true }, { is_active: true }))).toEqual([]);
    expect(dashboardCounterOperations('demo', {})).toEqual([]);
  });

  it('refuses a key for anything but a client slug', () => {
    expect(() => dashboardCounterOperations('De#mo', { users: { onboarded: 1 } })).toThrow(/client slug/);
  });
});

describe('device and device-user transitions', () => {
  it('places a device in exactly one state', () => {
    expect(deviceDashboardState({})).toBe('pending');
    expect(deviceDashboardState({ activated_at: '2024-01-01T00:00:00.000Z' })).toBe('activated');
    expect(deviceDashboardState({ activated_at: '2024-01-01T00:00:00.000Z', is_deactivated: true })).toBe('deactivated');
    expect(deviceDashboardState({ is_legacy: true })).toBe('legacyActivated');
    expect(deviceDashboardState({ is_legacy: true, is_deactivated: true })).toBe('legacyDeactivated');
  });

  it('deactivation moves the device and takes its versions out of the fleet', () => {
    const active = { activated_at: '2024-01-01T00:00:00.000Z', app_version: '3.1', os_version: '14' };
    expect(dashboardIncrements(deviceCounterChanges(active, { ...active, is_deactivated: true }))).toEqual({
      dev_activated: -1,
      dev_deactivated: 1,
      'appv#3.1': -1,
      'osv#14': -1,
    });
  });

  it('an app upgrade moves only the version counts', () => {
    const before = { activated_at: 'x', app_version: '3.1' };
    expect(dashboardIncrements(deviceCounterChanges(before, { ...before, app_version: '3.2' }))).toEqual({ 'appv#3.1': -1, 'appv#3.2': 1 });
  });

  it('onboard, offboard and re-onboard', () => {
    expect(dashboardIncrements(deviceUserCounterChanges(undefined, { is_active: true }))).toEqual({ usr_onboarded: 1 });
    expect(dashboardIncrements(deviceUserCounterChanges({ is_active: true }, { is_active: false }))).toEqual({ usr_onboarded: -1, usr_offboarded: 1 });
    expect(dashboardIncrements(deviceUserCounterChanges({ is_active: false, is_legacy: true }, { is_active: true }))).toEqual({
      usr_legacyOffboarded: -1,
      usr_onboarded: 1,
    });
  });

  it('merges several moves into one change', () => {
    const merged = mergeDashboardChanges(deviceUserCounterChanges(undefined, { is_active: true }), deviceUserCounterChanges({ is_active: true }, { is_active: false }));
    expect(dashboardIncrements(merged)).toEqual({ usr_offboarded: 1 });
  });
});

describe('readDashboard', () => {
  it('answers zeros for a tenant with no counter item, in the contract shape', () => {
    const dashboard = readDashboard(undefined);
    expect(Dashboard.parse(dashboard)).toEqual(dashboard);
    expect(dashboard.devices).toEqual({ activated: 0, pending: 0, deactivated: 0, legacyActivated: 0, legacyDeactivated: 0 });
  });

  it('decodes versions, drops zero counts, clamps drifted negatives, orders by count', () => {
    const dashboard = readDashboard({ dev_activated: 3, usr_offboarded: -2, 'appv#1.0': 1, 'appv#2.0': 4, 'appv#0.9': 0, 'osv#a%23b%25': 2 });
    expect(dashboard.devices.activated).toBe(3);
    expect(dashboard.users.offboarded).toBe(0);
    expect(dashboard.app_versions).toEqual([
      { version: '2.0', count: 4 },
      { version: '1.0', count: 1 },
    ]);
    expect(dashboard.os_versions).toEqual([{ version: 'a#b%', count: 2 }]);
  });
});

describe('group shares', () => {
  it('a device counts in its group share too, and a move takes from one share and adds to the other', () => {
    const device = { group: 'london', activated_at: '2024-01-01T00:00:00Z', app_version: '5.2' };
    const operations = dashboardCounterOperations('demo', deviceCounterChanges(device, { ...device, group: 'compliance' }));
    // The tenant's counts net out (nothing to write); the two shares move.
    expect(operations).toHaveLength(2);
    const [from, to] = operations;
    expect(from).toMatchObject({ key: keys.device.groupDashboardCounters('demo', 'london'), update: { set: { group: 'london' }, add: { dev_activated: -1, 'appv#5.2': -1 } } });
    expect(to).toMatchObject({ key: keys.device.groupDashboardCounters('demo', 'compliance'), update: { add: { dev_activated: 1, 'appv#5.2': 1 } } });
  });

  it('a device user counts in its group share; without a group only the tenant item moves', () => {
    expect(dashboardCounterOperations('demo', deviceUserCounterChanges(undefined, { is_active: true, group: 'london' }))).toHaveLength(2);
    expect(dashboardCounterOperations('demo', deviceUserCounterChanges(undefined, { is_active: true }))).toHaveLength(1);
  });

  it('sums the shares of visible groups into one dashboard', () => {
    const summed = sumCounterItems([{ dev_activated: 2, 'appv#5.2': 2, group: 'a' }, { dev_activated: 1, usr_onboarded: -3, 'appv#5.2': 1 }]);
    expect(readDashboard(summed)).toMatchObject({ devices: { activated: 3 }, users: { onboarded: 0 }, app_versions: [{ version: '5.2', count: 3 }] });
  });
});
