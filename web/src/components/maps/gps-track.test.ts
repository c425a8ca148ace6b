import { describe, expect, it } from 'vitest';
import { trackBounds, trackOrder } from './gps-track.ts';

const fix = (gps_reference: string, timestamp: string, latitude = 0, longitude = 0) => ({ gps_reference, timestamp, latitude, longitude });

describe('trackOrder', () => {
  it('puts the fixes oldest first (the API lists newest first), unreadable times last', () => {
    const ordered = trackOrder([
      fix('c', '2026-11-22T01:15:00Z'),
      fix('x', 'not a time'),
      fix('a', '2026-11-22T01:13:00Z'),
      fix('b', '2026-11-22T01:14:00Z'),
    ]);
    expect(ordered.map((point) => point.gps_reference)).toEqual(['a', 'b', 'c', 'x']);
  });
});

describe('trackBounds', () => {
  it('spans every point', () => {
    expect(
      trackBounds([fix('a', '', 53.48, -2.24), fix('b', '', 53.47, -2.25), fix('c', '', 53.49, -2.23)]),
    ).toEqual([
      [53.47, -2.25],
      [53.49, -2.23],
    ]);
    expect(trackBounds([])).toBeUndefined();
  });
});
