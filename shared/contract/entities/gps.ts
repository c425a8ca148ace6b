import * as z from 'zod';
import { SHORT_TEXT_MAX } from '../bounds.ts';
import { openObject, safeNumber, SafeNumber } from '../fields.ts';
import { lengthAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';

const shortText = z.string().max(SHORT_TEXT_MAX, { error: lengthAtMost(SHORT_TEXT_MAX) });

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

/** One fix as the device seals it inside a GPS upload's meta (unknown fields bounded, as everywhere in device meta). */
export const GpsFix = openObject({
  accuracy: safeNumber(0).optional(),
  altitude: SafeNumber.optional(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  timestamp: shortText,
  timezone: shortText.optional(),
  provider: shortText.optional(),
});
export type GpsFix = z.infer<typeof GpsFix>;
