import { describe, expect, it } from 'vitest';
import { captureLocationOf } from './location.ts';

describe('capture location', () => {
  it('prefers the recording fix, falls back to the last known one, ignores unusable values', () => {
    const payload_location = { latitude: 53.8, longitude: -1.55, accuracy: 12, timestamp: '2025-01-01T10:00:00Z' };
    expect(captureLocationOf({ payload_location, timezone: 'Europe/London' }, 'R')).toEqual({
      fix: 'payload_location',
      point: { gps_reference: 'R-payload_location', latitude: 53.8, longitude: -1.55, accuracy: 12, timestamp: '2025-01-01T10:00:00Z', timezone: 'Europe/London' },
    });
    expect(captureLocationOf({ payload_location: null, last_known_location: { latitude: 1, longitude: 2 }, payload_time: '2025-01-02T00:00:00Z' }, 'R')?.point).toMatchObject({
      latitude: 1,
      timestamp: '2025-01-02T00:00:00Z',
    });
    expect(captureLocationOf({ payload_location: { latitude: 95, longitude: 0 } }, 'R')).toBeUndefined();
    expect(captureLocationOf(undefined, 'R')).toBeUndefined();
  });
});
