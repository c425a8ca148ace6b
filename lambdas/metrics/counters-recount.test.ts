import { describe, expect, it } from 'vitest';
import type { DeviceItem } from '../core/store/entities/device.ts';
import type { DeviceUserItem } from '../core/store/entities/device-user.ts';
import { expectedCounters } from './counters-recount.ts';

const user = (reference: string, fields: Partial<DeviceUserItem>): DeviceUserItem =>
  ({ client: 'acme', device_user_reference: reference, group: 'north', services: ['calls'], expected_device_count: 1, is_active: true, is_legacy: false, ...fields }) as DeviceUserItem;
const device = (reference: string, fields: Partial<DeviceItem>): DeviceItem =>
  ({ client: 'acme', device_reference: reference, group: 'north', services: ['calls'], imeis: [], is_deactivated: false, is_legacy: false, activated_at: '2026-01-01T00:00:00Z', ...fields }) as DeviceItem;

describe('expectedCounters', () => {
  const targets = expectedCounters(
    'acme',
    [
      user('du-a', {}),
      user('du-b', { services: ['calls', 'sms'], expected_device_count: 2 }),
      user('du-c', { is_active: false }),
      user('du-d', { is_active: false, retention_state: 'Deleted' }),
      user('du-e', { group: 'gone' }),
    ],
    [device('d1', {}), device('d2', { is_deactivated: true }), device('d3', { activated_at: undefined, services: [] }), device('d4', { group: 'gone' })],
    new Set(['north', 'south']),
  );
  const byKind = (kind: string, sk?: string) => targets.find((target) => target.kind === kind && (sk === undefined || target.key.sk === sk))?.counters;

  it('licence use counts the onboarded users per service, whatever their group', () => {
    expect(byKind('licence')).toMatchObject({ used_calls: 3, used_sms: 1, used_gps: 0 });
  });

  it('a group counts its onboarded users and its devices not deactivated, by the write paths rules', () => {
    expect(byKind('group', 'GROUP#north')).toMatchObject({
      stats_device_users: 2,
      stats_expected_devices: 3,
      stats_actual_devices: 2,
      stats_svc_calls_used_licenses: 2,
      stats_svc_calls_active_users: 2,
      stats_svc_calls_active_devices: 1,
      stats_svc_sms_used_licenses: 1,
    });
    expect(byKind('group', 'GROUP#south')).toMatchObject({ stats_device_users: 0, stats_actual_devices: 0 });
    // A group that does not exist gets no stats item.
    expect(targets.some((target) => target.kind === 'group' && target.key.sk === 'GROUP#gone')).toBe(false);
  });

  it('the dashboard counts every device by state and every user retention has not disposed of', () => {
    expect(byKind('dashboard', 'COUNTERS')).toMatchObject({ dev_activated: 2, dev_deactivated: 1, dev_pending: 1, usr_onboarded: 3, usr_offboarded: 1 });
  });
});
