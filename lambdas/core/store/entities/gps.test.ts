import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { gpsToItem, readGps, toGps, type GpsItem } from './gps.ts';

const fix: GpsItem = {
  client: 'acme',
  gps_reference: '01J0000000000000000000000B',
  device_reference: 'dev-1',
  group: 'north',
  accuracy: 5,
  latitude: 51.5,
  longitude: -0.12,
  timestamp: '2026-01-02T03:04:05.000Z',
  received_at: '2026-01-02T03:04:06.000Z',
};

describe('GPS item', () => {
  it('round-trips on its lists; tenant and arrival time stay off the wire', () => {
    const item = gpsToItem('acme', fix);
    expect(item).toMatchObject(keys.gps.item('acme', { time: fix.timestamp, id: fix.gps_reference, deviceReference: 'dev-1', group: 'north' }));
    const { client: _c, received_at: _r, ...answered } = fix;
    expect(toGps(readGps(item))).toEqual(answered);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...gpsToItem('acme', fix), latitude: 123 };
    expect(() => readGps(item)).toThrow(InternalError);
    expect(() => readGps(item)).toThrow(/Gps item .* latitude: /);
  });
});
