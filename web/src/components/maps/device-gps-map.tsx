// Leaflet and its stylesheet load only with this module, which only the GPS route imports (its own chunk).
import 'leaflet/dist/leaflet.css';
import type { Feature, FeatureCollection } from 'geojson';
import { useEffect, useState } from 'react';
import { CircleMarker, GeoJSON, MapContainer, Pane, Polyline, Popup, ScaleControl, TileLayer, useMap } from 'react-leaflet';
import type { Gps } from '#shared/contract/entities/gps.ts';
import { getConfig } from '../../config.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { trackBounds, type LatLng } from './gps-track.ts';
import { loadWorldLand } from './world-outline.ts';

/** The sea behind the offline outline. */
const SEA = '#cfe3f0';

/** The offline base map: the world's land drawn as plain shapes under the track (no tile server needed). */
function WorldOutline() {
  const [land, setLand] = useState<Feature | FeatureCollection>();
  useEffect(() => {
    let live = true;
    void loadWorldLand().then((loaded) => {
      if (live) setLand(loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  if (land === undefined) return null;
  return (
    // Its own pane below Leaflet's overlay pane (z-index 400): the outline arrives after the track and must not cover it.
    <Pane name="world-outline" style={{ zIndex: 250 }}>
      <GeoJSON
        data={land}
        interactive={false}
        // Fixed colours: SVG attributes do not read CSS variables. The class lets the browser tests find the land.
        style={{ color: '#868e96', weight: 1, fillColor: '#d9dcc8', fillOpacity: 1, className: 'world-land' }}
      />
    </Pane>
  );
}

/** Keeps every point in view when the points change (a new range, or "Load more" extending the track). */
function FitToPoints({ bounds }: { bounds: [LatLng, LatLng] | undefined }) {
  const map = useMap();
  const key = bounds?.flat().join(',');
  useEffect(() => {
    if (bounds === undefined) return;
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 17 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the corners' text, not the array: a re-render with the same corners must not undo the user's panning.
  }, [map, key]);
  return null;
}

/**
 * The device's track on a Leaflet map: a polyline through the fixes in time order and a circle per fix with its time
 * and accuracy. The base map is the deployment's tiles when it configures them (`mapTileUrl`, `mapAttribution`),
 * else the bundled world outline (land on a sea-coloured background), with a scale so distances read either way.
 */
export function DeviceGpsMap({ points }: { points: readonly Gps[] }) {
  const { mapTileUrl, mapAttribution } = getConfig();
  const bounds = trackBounds(points);
  const line = points.map((point): LatLng => [point.latitude, point.longitude]);
  const last = points.length - 1;

  return (
    <div role="region" aria-label="Map of the device's GPS points (the same points are listed in the table below)">
      <MapContainer
        center={line[0] ?? [51.5, -0.12]}
        zoom={13}
        style={{ height: 420, width: '100%', background: mapTileUrl === undefined ? SEA : undefined, borderRadius: 4 }}
        scrollWheelZoom={false}
      >
        {mapTileUrl !== undefined ? <TileLayer url={mapTileUrl} attribution={mapAttribution ?? ''} /> : <WorldOutline />}
        <ScaleControl metric imperial={false} />
        <FitToPoints bounds={bounds} />
        {line.length > 1 && <Polyline positions={line} pathOptions={{ color: '#1a9fd7', weight: 3, opacity: 0.8 }} />}
        {points.map((point, index) => (
          <CircleMarker
            key={point.gps_reference}
            center={[point.latitude, point.longitude]}
            radius={index === last ? 8 : 5}
            pathOptions={{ color: index === last ? '#e03131' : '#1a9fd7', fillOpacity: 0.8, weight: 2 }}
          >
            <Popup>
              <strong>{index === last ? 'Latest point' : `Point ${index + 1} of ${points.length}`}</strong>
              <br />
              {formatDateTime(point.timestamp)}
              {point.timezone ? ` (${point.timezone})` : ''}
              <br />
              Accuracy: {point.accuracy === undefined ? 'unknown' : `${formatNumber(point.accuracy)} m`}
              <br />
              {point.latitude.toFixed(6)}, {point.longitude.toFixed(6)}
            </Popup>
          </CircleMarker>
        ))}
      </MapContainer>
    </div>
  );
}
