import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import {
  deviceLastSeenToItem,
  deviceToItem,
  readDevice,
  readDeviceHistory,
  readDeviceHolder,
  readDeviceLastSeen,
  toDevice,
  toDeviceHistory,
  type DeviceItem,
} from './device.ts';

const device: DeviceItem = {
  client: 'acme',
  device_reference: 'dev-1',
  device_user_reference: 'du-1',
  group: 'north',
  services: ['calls'],
  imeis: ['350000000000001'],
  last_seen: '2026-01-02T03:04:05.000Z',
  is_deactivated: false,
  activated_at: '2026-01-01T00:00:00.000Z',
  is_legacy: false,
  phone_numbers: [{ phone_number: '+447700900001', first_verified: '2026-01-01T00:00:00.000Z', last_verified: '2026-01-02T03:04:05.000Z', slot_index: 0 }],
  installation_id: 'i-1',
  install_state: 'NoChange',
  updated_at: '2026-01-02T03:04:05.000Z',
  updated_by: 'device:dev-1',
};

describe('device item', () => {
  it('round-trips with the list keys of its holder and group; the install state stays off the wire', () => {
    const item = deviceToItem('acme', device);
    expect(item).toMatchObject(keys.device.item('acme', 'dev-1', 'du-1', 'north'));
    expect(readDevice(item)).toEqual(device);
    const { install_state: _internal, ...answered } = device;
    expect(toDevice(readDevice(item))).toEqual(answered);
  });

  it('reads a device enrolled before activation with the defaults of what it lacks', () => {
    expect(readDevice({ ...keys.device.item('acme', 'dev-2'), device_reference: 'dev-2' })).toMatchObject({
      services: [],
      imeis: [],
      phone_numbers: [],
      is_deactivated: false,
      is_legacy: false,
    });
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...deviceToItem('acme', device), services: ['telepathy'] };
    expect(() => readDevice(item)).toThrow(InternalError);
    expect(() => readDevice(item)).toThrow(/Device item .* services\.0: /);
  });

  it('reads only the holder and group where that is all a reader needs, ignoring the rest of the device', () => {
    expect(readDeviceHolder({ ...deviceToItem('acme', device), services: ['telepathy'] })).toEqual({ device_user_reference: 'du-1', group: 'north' });
    expect(readDeviceHolder({ ...keys.device.item('acme', 'dev-2'), device_reference: 'dev-2' })).toEqual({});
    expect(() => readDeviceHolder({ ...deviceToItem('acme', device), group: 7 })).toThrow(/Device item .* group: /);
  });
});

describe('device history item', () => {
  it('reads a holding period as the contract shows it', () => {
    const item = { ...keys.device.history('acme', 'dev-1', '2026-01-01T00:00:00.000Z', 'h1'), entity: 'DeviceHistory', from: '2026-01-01T00:00:00.000Z', group: 'north' };
    expect(toDeviceHistory(readDeviceHistory(item))).toEqual({ from: '2026-01-01T00:00:00.000Z', group: 'north' });
    expect(() => readDeviceHistory({ ...item, from: undefined })).toThrow(/DeviceHistory item .* from: /);
  });
});

describe('device last-seen item', () => {
  it('round-trips on the last-seen index, and refuses one without its device', () => {
    const item = deviceLastSeenToItem('acme', 'dev-1', '2026-01-02T03:04:05.000Z');
    expect(item).toMatchObject(keys.device.lastSeen('acme', 'dev-1', '2026-01-02T03:04:05.000Z'));
    expect(readDeviceLastSeen(item)).toEqual({ client: 'acme', device_reference: 'dev-1', last_seen: '2026-01-02T03:04:05.000Z' });
    expect(() => readDeviceLastSeen({ ...item, device_reference: undefined })).toThrow(/DeviceLastSeen item .* device_reference: /);
  });
});
