import * as z from 'zod';
import { Actor } from './actor.ts';
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
  /**
   * Who called, by their stable reference (./actor.ts: a portal user's reference, `staff:<sub>`, `app:<reference>`);
   * records written before that rule name staff by their bare subject and apps by their bare reference.
   */
  user_id: z.string(),
  /** Who called, as named at the time (absent on records written before it was kept). */
  actor: Actor.optional(),
  user_ip: z.string().optional(),
  browser: z.string().optional(),
  roles: z.array(z.string()).default([]),
  is_client_app: z.boolean().default(false),
  /** Set on calls made by staff in support mode. */
  support_reference: z.string().optional(),
});
export type UserActivity = z.infer<typeof UserActivity>;

/**
 * One audit trail's hash chain as the portal's audit screen shows it: records are written by each call and linked
 * into the chain off the request path, so some may be waiting (`pending_count`, the oldest since
 * `oldest_pending_at`). `head_hash` is SHA-256 hex of the last link (64 zeros while the chain is empty);
 * `last_checkpoint_at` is when the head was last signed.
 */
export const ChainState = z.object({
  linked_count: z.int().min(0),
  pending_count: z.int().min(0),
  head_sequence: z.int().min(0),
  head_hash: z.string().regex(/^[0-9a-f]{64}$/),
  last_checkpoint_at: Timestamp.nullable(),
  oldest_pending_at: Timestamp.nullable(),
});
export type ChainState = z.infer<typeof ChainState>;

/** `GET activities/chain`: both trails of the tenant. */
export const ActivityChainState = z.object({ user_activity: ChainState, device_activity: ChainState });
export type ActivityChainState = z.infer<typeof ActivityChainState>;
