import type { Feature, FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The world's land at 1:110m (Natural Earth, from the `world-atlas` package), as GeoJSON for Leaflet: the offline
 * base map, so a track is seen on land even where no tile server is reachable (the local stack, a closed network).
 * The 55 kB outline is fetched only when a map without tiles is first shown, never with the first page.
 */
export async function loadWorldLand(): Promise<Feature | FeatureCollection> {
  const { default: topology } = await import('world-atlas/land-110m.json', { with: { type: 'json' } });
  return landOf(topology as unknown as Topology<{ land: GeometryCollection }>);
}

/** The `land` object of a world-atlas topology as GeoJSON. */
export function landOf(topology: Topology<{ land: GeometryCollection }>): Feature | FeatureCollection {
  return feature(topology, topology.objects.land);
}
