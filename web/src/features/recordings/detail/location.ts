import type { Gps } from '#shared/contract/entities/gps.ts';

/** Which fix of the meta placed the recording. */
export type CaptureFix = 'payload_location' | 'last_known_location';

export const CAPTURE_FIX_LABELS: Record<CaptureFix, string> = {
  payload_location: 'Where the recording was made',
  last_known_location: 'The phone’s last known location (no fix when recording)',
};

/**
 * Where a recording was captured, as one map point: the meta's `payload_location`, else its `last_known_location`;
 * undefined when neither holds a usable latitude and longitude.
 */
export function captureLocationOf(meta: Record<string, unknown> | undefined, payloadReference: string): { point: Gps; fix: CaptureFix } | undefined {
  for (const fix of ['payload_location', 'last_known_location'] as const) {
    const value = meta?.[fix];
    if (value === null || typeof value !== 'object') continue;
    const location = value as Record<string, unknown>;
    const { latitude, longitude } = location;
    if (typeof latitude !== 'number' || typeof longitude !== 'number' || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
    const timestamp = typeof location.timestamp === 'string' ? location.timestamp : String(meta?.payload_time ?? '');
    const point: Gps = { gps_reference: `${payloadReference}-${fix}`, latitude, longitude, timestamp };
    if (typeof location.accuracy === 'number') point.accuracy = location.accuracy;
    if (typeof meta?.timezone === 'string') point.timezone = meta.timezone;
    return { point, fix };
  }
  return undefined;
}
