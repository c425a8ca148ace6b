import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { deviceUserToItem, readDeviceUser, toDeviceUser, type DeviceUserItem } from './device-user.ts';

const user: DeviceUserItem = {
  client: 'acme',
  device_user_reference: 'du-1',
  group: 'north',
  services: ['calls', 'sms'],
  expected_device_count: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  surname: 'Lovelace',
  is_active: true,
  onboard_date: '2026-01-01T00:00:00.000Z',
  is_legacy: false,
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_by: 'u-1',
};

describe('device user item', () => {
  it('round-trips with its group list key', () => {
    const item = deviceUserToItem('acme', user);
    expect(item).toMatchObject(keys.deviceUser.item('acme', 'du-1', 'north'));
    expect(toDeviceUser(readDeviceUser(item))).toEqual(user);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...deviceUserToItem('acme', user), is_active: 'yes' };
    expect(() => readDeviceUser(item)).toThrow(InternalError);
    expect(() => readDeviceUser(item)).toThrow(/DeviceUser item .* is_active: /);
  });
});
