import { z } from 'zod';
import { Timestamp } from './common.ts';

/** One API call made by a device (or, in UserActivity, a portal user or client app). */
export const DeviceActivity = z.object({
  log_id: z.string(),
  device_ip: z.string().optional(),
  device_reference: z.string().optional(),
  device_user_reference: z.string().optional(),
  activity_time: Timestamp,
  activity_end_time: Timestamp.optional(),
  /** Seconds. */
  duration: z.number().min(0).optional(),
  group: z.string().optional(),
  action: z.string(),
  is_allowed: z.boolean(),
  denial_reason: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  status_code: z.int().optional(),
});
export type DeviceActivity = z.infer<typeof DeviceActivity>;

/** A portal user's (or client app's) call. Append-only and hash-chained (DESIGN.md §8). */
export const UserActivity = DeviceActivity.omit({ device_ip: true }).extend({
  user_id: z.string(),
  user_ip: z.string().optional(),
  browser: z.string().optional(),
  roles: z.array(z.string()).default([]),
  is_client_app: z.boolean().default(false),
  /** Set on calls made by staff in support mode. */
  support_reference: z.string().optional(),
});
export type UserActivity = z.infer<typeof UserActivity>;
