import { describe, expect, it } from 'vitest';
import { deviceGroupStatsChanges, withinStored } from './device-group-stats.ts';
import { readGroupStats, statsIncrements } from './group-stats.ts';

const increments = (changes: ReturnType<typeof deviceGroupStatsChanges>) =>
  Object.fromEntries([...changes].map(([group, delta]) => [group, statsIncrements(delta)]));

describe('deviceGroupStatsChanges', () => {
  it('an activated device counts in its group and, per enabled service, as an active device', () => {
    expect(increments(deviceGroupStatsChanges(undefined, { group: 'north', is_deactivated: false, services: ['calls', 'sms'] }))).toEqual({
      north: { stats_actual_devices: 1, stats_svc_calls_active_devices: 1, stats_svc_sms_active_devices: 1 },
    });
  });

  it('a deactivation takes it all back; a deactivated device counts nowhere', () => {
    const device = { group: 'north', is_deactivated: false, services: ['calls' as const] };
    expect(increments(deviceGroupStatsChanges(device, { ...device, is_deactivated: true }))).toEqual({
      north: { stats_actual_devices: -1, stats_svc_calls_active_devices: -1 },
    });
    expect(increments(deviceGroupStatsChanges({ ...device, is_deactivated: true }, { ...device, is_deactivated: true, group: 'south' }))).toEqual({});
  });

  it('a change of services within a group nets out; a move touches each group once', () => {
    const device = { group: 'north', services: ['calls' as const] };
    expect(increments(deviceGroupStatsChanges(device, { ...device, services: ['sms'] }))).toEqual({
      north: { stats_svc_calls_active_devices: -1, stats_svc_sms_active_devices: 1 },
    });
    expect(increments(deviceGroupStatsChanges(device, { ...device, group: 'south' }))).toEqual({
      north: { stats_actual_devices: -1, stats_svc_calls_active_devices: -1 },
      south: { stats_actual_devices: 1, stats_svc_calls_active_devices: 1 },
    });
  });
});

describe('withinStored', () => {
  it('leaves out a decrement below what the group holds, keeps every increment', () => {
    const stored = readGroupStats({ stats_actual_devices: 1, stats_svc_calls_active_devices: 0 });
    expect(statsIncrements(withinStored({ actual_devices: -1, services: { calls: { active_devices: -1 }, sms: { active_devices: 1 } } }, stored))).toEqual({
      stats_actual_devices: -1,
      stats_svc_sms_active_devices: 1,
    });
  });
});
