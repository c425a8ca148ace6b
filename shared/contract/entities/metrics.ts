import * as z from 'zod';
import { MetricScope } from '../../constants/devices.ts';
import { Timestamp } from './common.ts';

/**
 * Payload counts of one device in one period. `period` is the bucket (e.g. `2024-05-01` daily, `2024-W18`
 * weekly, `2024-05` monthly, `2024` yearly, `all` for Summary).
 */
export const DevicePayloadMetrics = z.object({
  device_reference: z.string(),
  scope: MetricScope,
  period: z.string(),
  counts: z.record(z.string(), z.int().min(0)),
  first_occurrence: Timestamp.optional(),
  last_occurrence: Timestamp.optional(),
});
export type DevicePayloadMetrics = z.infer<typeof DevicePayloadMetrics>;
