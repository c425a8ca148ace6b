import * as z from 'zod';
import { CidrRanges, GroupReference, integer, RoleReference } from '../fields.ts';
import { COMPLETENESS_GRACE_HOURS_DEFAULT, COMPLETENESS_HOURS_MAX, COMPLETENESS_HOURS_MIN, SILENT_DEVICE_HOURS_DEFAULT } from '../../constants/completeness.ts';
import { PayloadType } from '../../constants/payloads.ts';
import { AlertPermissions } from './alerts.ts';
import { Audited } from './common.ts';

/** Capture completeness hours (shared/constants/completeness.ts): whole hours within the bounds. */
const CompletenessHours = integer(COMPLETENESS_HOURS_MIN, COMPLETENESS_HOURS_MAX);

export const AccountDefaults = Audited.extend({
  user_group: GroupReference.optional(),
  role: RoleReference.optional(),
  cidr_ranges: CidrRanges.default([]),
  /** Hours a ledger entry stays `Pending` before it is `Missing`; the default applies when none was set. */
  completeness_grace_hours: CompletenessHours.default(COMPLETENESS_GRACE_HOURS_DEFAULT),
  /** Hours without a ledger report or telemetry before an activated device is silent (its alert). */
  silent_device_hours: CompletenessHours.default(SILENT_DEVICE_HOURS_DEFAULT),
});
export type AccountDefaults = z.infer<typeof AccountDefaults>;

export const AccountDefaultsRequest = z.strictObject({
  user_group: GroupReference.optional(),
  role: RoleReference.optional(),
  cidr_ranges: CidrRanges.default([]),
  /** Absent: the default (COMPLETENESS_GRACE_HOURS_DEFAULT) applies. */
  completeness_grace_hours: CompletenessHours.optional(),
  /** Absent: the default (SILENT_DEVICE_HOURS_DEFAULT) applies. */
  silent_device_hours: CompletenessHours.optional(),
});
export type AccountDefaultsRequest = z.infer<typeof AccountDefaultsRequest>;

export const AccountMigrationConfig = Audited.extend({
  disable_onboarding: z.boolean(),
  disable_offboarding: z.boolean(),
  disable_payloads: z.boolean(),
});
export type AccountMigrationConfig = z.infer<typeof AccountMigrationConfig>;

export const AccountMigrationConfigRequest = z.strictObject({
  disable_onboarding: z.boolean(),
  disable_offboarding: z.boolean(),
  disable_payloads: z.boolean(),
});
export type AccountMigrationConfigRequest = z.infer<typeof AccountMigrationConfigRequest>;

/**
 * Public account metadata (no auth): what the sign-in page needs before a token exists. The spec does not list
 * its fields; we decide: the client, a display name, and the identity provider's public client id and pool.
 */
export const AccountMetadata = z.object({
  client: z.string(),
  display_name: z.string().optional(),
  client_id: z.string().optional(),
  user_pool_id: z.string().optional(),
  is_admin: z.boolean().optional(),
});
export type AccountMetadata = z.infer<typeof AccountMetadata>;

/** The signed-in portal user as the server resolves them. */
export const UserProfile = z.object({
  user_reference: z.string(),
  client: z.string(),
  actions: z.array(z.string()),
  groups: z.array(z.string()),
  payload_types: z.array(PayloadType),
  roles: z.array(z.string()),
  user_group: z.string().optional(),
  portal_config: z.record(z.string(), z.unknown()).optional(),
  /** What the caller may do with alerts per scope (union over the roles in force from its address), for the alert screens. */
  alert_permissions: AlertPermissions.optional(),
});
export type UserProfile = z.infer<typeof UserProfile>;

/** The web app's persisted session (camelCase as the spec writes it: it never travels on the wire). */
export const PersistentAuthState = z.object({
  client: z.string().optional(),
  refreshToken: z.string().optional(),
  idToken: z.string().optional(),
  expiresAt: z.number().optional(),
  user: z
    .object({
      reference: z.string(),
      actions: z.array(z.string()),
      groups: z.array(z.string()),
      roles: z.array(z.string()),
      portalConfig: z.record(z.string(), z.unknown()).optional(),
      payloadTypes: z.array(PayloadType),
      userGroup: z.string().optional(),
    })
    .optional(),
  supportReference: z.string().optional(),
});
export type PersistentAuthState = z.infer<typeof PersistentAuthState>;
