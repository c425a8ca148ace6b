import { describe, expect, it } from 'vitest';
import { loadWorldLand } from './world-outline.ts';

/** Is [lng, lat] inside the ring (even-odd rule)? */
function inRing(ring: readonly number[][], [x, y]: [number, number]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('the offline world outline', () => {
  it('holds land polygons that contain a point on land and not one at sea', async () => {
    const land = await loadWorldLand();
    const features = land.type === 'FeatureCollection' ? land.features : [land];
    const polygons = features.flatMap((item) =>
      item.geometry.type === 'MultiPolygon' ? item.geometry.coordinates : item.geometry.type === 'Polygon' ? [item.geometry.coordinates] : [],
    );
    expect(polygons.length).toBeGreaterThan(50);
    const onLand = (point: [number, number]) => polygons.some((polygon) => inRing(polygon[0] ?? [], point));
    expect(onLand([-1.5, 52.5])).toBe(true); // the English Midlands
    expect(onLand([-30, 40])).toBe(false); // the mid-Atlantic
  });
});
