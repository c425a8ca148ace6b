import type { Gps } from '#shared/contract/entities/gps.ts';
import { DeviceGpsMap } from '../../../components/maps/device-gps-map.tsx';

/**
 * The capture point on the portal's GPS map (the devices feature's component, reused, never copied). Its own module,
 * loaded lazily, so Leaflet only arrives with a recording that has a location.
 */
export default function RecordingMap({ point }: { point: Gps }) {
  return <DeviceGpsMap points={[point]} />;
}
