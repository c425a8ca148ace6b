import type { Gps } from '#shared/contract/entities/gps.ts';

export type LatLng = [number, number];

/** The fixes in time order (oldest first), as the track is walked; fixes with unreadable times go last, stably. */
export function trackOrder(points: readonly Gps[]): Gps[] {
  const time = (point: Gps) => {
    const value = Date.parse(point.timestamp);
    return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
  };
  return points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => time(a.point) - time(b.point) || a.index - b.index)
    .map(({ point }) => point);
}

/** South-west and north-east corners around the points, or undefined for none. */
export function trackBounds(points: readonly Pick<Gps, 'latitude' | 'longitude'>[]): [LatLng, LatLng] | undefined {
  if (points.length === 0) return undefined;
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const { latitude, longitude } of points) {
    south = Math.min(south, latitude);
    north = Math.max(north, latitude);
    west = Math.min(west, longitude);
    east = Math.max(east, longitude);
  }
  return [
    [south, west],
    [north, east],
  ];
}
