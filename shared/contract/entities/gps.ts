import { z } from 'zod';
import { Timestamp } from './common.ts';

export const Gps = z.object({
  gps_reference: z.string(),
  device_reference: z.string().optional(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  accuracy: z.number().optional(),
  altitude: z.number().optional(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  timestamp: Timestamp,
  timezone: z.string().optional(),
  provider: z.string().optional(),
});
export type Gps = z.infer<typeof Gps>;

/** One fix as the device seals it inside a GPS upload's meta. */
export const GpsFix = z.looseObject({
  accuracy: z.number().min(0).optional(),
  altitude: z.number().optional(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  timestamp: z.string(),
  timezone: z.string().optional(),
  provider: z.string().optional(),
});
export type GpsFix = z.infer<typeof GpsFix>;
