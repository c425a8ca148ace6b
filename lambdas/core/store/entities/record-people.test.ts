import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readRecordPeople } from './record-people.ts';

describe('the people a record names', () => {
  it('reads the device and its user of device data, the caller of a portal call, a device user’s own reference; nothing else', () => {
    const payload = {
      ...keys.payload.key('acme', 'p1'),
      entity: 'Payload',
      payload_reference: 'p1',
      payload_type: 'Call',
      device_reference: 'dev-1',
      device_user_reference: 'ann',
      sealed_meta: 'left unread',
    };
    expect(readRecordPeople(payload)).toEqual({ entity: 'Payload', device_reference: 'dev-1', device_user_reference: 'ann' });
    const fix = { ...keys.gps.item('acme', { time: '2026-01-01T00:00:00.000Z', id: 'g1', deviceReference: 'dev-1' }), gps_reference: 'g1', device_reference: 'dev-1' };
    expect(readRecordPeople(fix)).toEqual({ entity: 'Gps', device_reference: 'dev-1' });
    const call = { ...keys.userActivity.item('acme', '2026-01-01T00:00:00.000Z', 'L1', 'officer'), user_id: 'officer', action: 'payloads:List' };
    expect(readRecordPeople(call)).toEqual({ entity: 'UserActivity', user_id: 'officer' });
    const user = { ...keys.deviceUser.item('acme', 'ann'), device_user_reference: 'ann', email: 'ann@acme.test' };
    expect(readRecordPeople(user)).toEqual({ entity: 'DeviceUser', device_user_reference: 'ann' });
    expect(readRecordPeople({ ...keys.alert.item('acme', 'a1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'), alert_reference: 'a1' })).toBeUndefined();
  });

  it('never fails on an activity record kept as given: a name that is not text reads as none', () => {
    const odd = { ...keys.deviceActivity.item('acme', { activityTime: '2026-01-01T00:00:00.000Z', logId: 'L2', deviceReference: '-' }), device_reference: 42, entry_invalid: true };
    expect(readRecordPeople(odd)).toEqual({ entity: 'DeviceActivity' });
    expect(readRecordPeople({ ...keys.userActivity.item('acme', '2026-01-01T00:00:00.000Z', 'L3'), user_id: ['x'] })).toEqual({ entity: 'UserActivity' });
  });

  it('refuses device data whose names are not text, naming the entity and the path', () => {
    const log = { ...keys.deviceLog.item('acme', { time: '2026-01-01T00:00:00.000Z', id: 'l1', deviceReference: 'dev-1' }), log_id: 'l1', device_reference: 'dev-1', device_user_reference: 7 };
    expect(() => readRecordPeople(log)).toThrow(InternalError);
    expect(() => readRecordPeople(log)).toThrow(/DeviceLog item .* device_user_reference: /);
  });
});
