import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { deviceLogToItem, readDeviceLog, toDeviceLog, type DeviceLogItem } from './device-log.ts';

const line: DeviceLogItem = {
  client: 'acme',
  log_id: '01J0000000000000000000000A',
  device_reference: 'dev-1',
  device_user_reference: 'du-1',
  group: 'north',
  log_level: 'INFO',
  log_datetime: '2026-01-02T03:04:05.000Z',
  log_message: 'started',
  received_at: '2026-01-02T03:04:06.000Z',
};

describe('device log item', () => {
  it('round-trips on its four lists; tenant and arrival time stay off the wire', () => {
    const item = deviceLogToItem('acme', line);
    const place = { time: line.log_datetime, id: line.log_id, deviceReference: 'dev-1', deviceUserReference: 'du-1', group: 'north' };
    expect(item).toMatchObject(keys.deviceLog.item('acme', place));
    expect(readDeviceLog(item)).toEqual(line);
    const { client: _c, received_at: _r, ...answered } = line;
    expect(toDeviceLog(readDeviceLog(item))).toEqual(answered);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...deviceLogToItem('acme', line), log_level: 'Loud' };
    expect(() => readDeviceLog(item)).toThrow(InternalError);
    expect(() => readDeviceLog(item)).toThrow(/DeviceLog item .* log_level: /);
  });
});
