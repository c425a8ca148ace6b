import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readDeviceActivity, toDeviceActivity } from './device-activity.ts';

const call = {
  log_id: 'l1',
  device_reference: 'dev-1',
  activity_time: '2026-01-02T03:04:05.000Z',
  action: 'device:UploadLogs',
  is_allowed: true,
  status_code: 200,
};
const item = { ...keys.deviceActivity.item('acme', { activityTime: call.activity_time, logId: 'l1', deviceReference: 'dev-1' }), ...call, chain_hash: 'abc' };

describe('device activity item', () => {
  it('reads the call as the contract shows it (the trail chain attributes stay out)', () => {
    expect(toDeviceActivity(readDeviceActivity(item))).toEqual(call);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    expect(() => readDeviceActivity({ ...item, is_allowed: 'yes' })).toThrow(InternalError);
    expect(() => readDeviceActivity({ ...item, is_allowed: 'yes' })).toThrow(/DeviceActivity item .* is_allowed: /);
  });
});
