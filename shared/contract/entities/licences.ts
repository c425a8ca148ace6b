import * as z from 'zod';
import { LicenceLimit } from '../fields.ts';
import { SERVICES } from '../../constants/devices.ts';
import { Audited, Timestamp } from './common.ts';

const limitShape = Object.fromEntries(SERVICES.map((service) => [service, LicenceLimit])) as Record<
  (typeof SERVICES)[number],
  typeof LicenceLimit
>;

/** Per-service licence limits of one client: integers 0 to 100000. */
export const LicenceLimits = z.strictObject(limitShape);
export type LicenceLimits = z.infer<typeof LicenceLimits>;

export const ClientLicenseLimits = Audited.extend({ client: z.string(), ...limitShape });
export type ClientLicenseLimits = z.infer<typeof ClientLicenseLimits>;

/** Usage of one service against its limit. */
export const LicenceUsage = z.object({
  service: z.enum(SERVICES),
  limit: z.int().min(0),
  used: z.int().min(0),
});
export type LicenceUsage = z.infer<typeof LicenceUsage>;

/** A tenant's licences: limits and current usage per service. */
export const Licences = z.object({ client: z.string(), data: z.array(LicenceUsage) });
export type Licences = z.infer<typeof Licences>;

/** A tenant as the provider console lists it. */
export const ClientSummary = z.object({
  client: z.string(),
  display_name: z.string().optional(),
  created_at: Timestamp.optional(),
  is_active: z.boolean().optional(),
  limits: LicenceLimits.partial().optional(),
});
export type ClientSummary = z.infer<typeof ClientSummary>;

/** A provider staff member. */
export const Staff = z.object({
  user_reference: z.string(),
  email: z.string().optional(),
  roles: z.array(z.string()).default([]),
  last_seen: Timestamp.optional(),
});
export type Staff = z.infer<typeof Staff>;

/** Per-client statistics (device, user and payload counts; integrity checks on stores). */
export const ClientStatistics = z.object({
  client: z.string(),
  devices: z.int().min(0).optional(),
  device_users: z.int().min(0).optional(),
  payloads: z.int().min(0).optional(),
  stores: z.record(z.string(), z.unknown()).optional(),
});
export type ClientStatistics = z.infer<typeof ClientStatistics>;

/** IntegrityCheck: per-client statistics on stores (item counts per entity, objects per bucket prefix). */
export const IntegrityCheck = z.object({
  client: z.string(),
  checked_at: Timestamp,
  stores: z.record(z.string(), z.object({ items: z.int().min(0), mismatches: z.int().min(0).optional() })),
});
export type IntegrityCheck = z.infer<typeof IntegrityCheck>;
