import { describe, expect, it } from 'vitest';
import { statsIncrements } from '../../metrics/public.ts';
import { groupStatsChanges } from './device-user-changes.ts';

const active = { group: 'north', is_active: true, expected_device_count: 2, services: ['calls', 'sms'] as const };
const increments = (changes: ReturnType<typeof groupStatsChanges>) =>
  Object.fromEntries([...changes].map(([group, delta]) => [group, statsIncrements(delta)]));

describe('groupStatsChanges', () => {
  it('onboarding adds the user, its expected devices and its services to its group', () => {
    expect(increments(groupStatsChanges(undefined, { ...active, services: [...active.services] }))).toEqual({
      north: {
        stats_device_users: 1,
        stats_expected_devices: 2,
        stats_svc_calls_used_licenses: 1,
        stats_svc_calls_active_users: 1,
        stats_svc_calls_expected_devices: 2,
        stats_svc_sms_used_licenses: 1,
        stats_svc_sms_active_users: 1,
        stats_svc_sms_expected_devices: 2,
      },
    });
  });

  it('offboarding takes it all back; an offboarded user counts nowhere', () => {
    const user = { ...active, services: [...active.services] };
    expect(increments(groupStatsChanges(user, { ...user, is_active: false }))).toEqual({
      north: {
        stats_device_users: -1,
        stats_expected_devices: -2,
        stats_svc_calls_used_licenses: -1,
        stats_svc_calls_active_users: -1,
        stats_svc_calls_expected_devices: -2,
        stats_svc_sms_used_licenses: -1,
        stats_svc_sms_active_users: -1,
        stats_svc_sms_expected_devices: -2,
      },
    });
    expect(groupStatsChanges({ ...user, is_active: false }, { ...user, is_active: false, group: 'south' }).size).toBe(0);
  });

  it('a change within one group nets out; a move touches each group once', () => {
    const user = { ...active, services: ['calls' as const] };
    expect(increments(groupStatsChanges(user, { ...user, expected_device_count: 3 }))).toEqual({
      north: { stats_expected_devices: 1, stats_svc_calls_expected_devices: 1 },
    });
    const moved = groupStatsChanges(user, { ...user, group: 'south' });
    expect([...moved.keys()]).toEqual(['north', 'south']);
    expect(statsIncrements(moved.get('south')!)).toMatchObject({ stats_device_users: 1 });
  });
});
