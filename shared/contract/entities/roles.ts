import * as z from 'zod';
import { PAYLOAD_TYPES, PayloadType } from '../../constants/payloads.ts';
import { CidrRanges, RoleReference, text } from '../fields.ts';
import { PERMISSION_CONDITIONS_MAX, ROLE_CONDITIONS_MAX, ROLE_PERMISSIONS_MAX } from '../bounds.ts';
import { itemsAtLeast, itemsAtMost, itemsBetween, MESSAGES } from '../messages.ts';
import { AlertPermissions } from './alerts.ts';
import { Audited } from './common.ts';

/** A matcher: a wildcard pattern (`*`, `?`), or a regex when the owner's `is_regex` is set. */
const Matcher = text(1, 255);

/**
 * A group condition: all given matchers must match (group names, tag keys, tag values). At least one is needed.
 * `is_denied` and `is_regex` alone do not count as a property.
 */
export const Condition = z
  .strictObject({
    names_matching: Matcher.optional(),
    keys_matching: Matcher.optional(),
    values_matching: Matcher.optional(),
    is_denied: z.boolean().default(false),
    is_regex: z.boolean().default(false),
  })
  .refine(
    (condition) =>
      condition.names_matching !== undefined ||
      condition.keys_matching !== undefined ||
      condition.values_matching !== undefined,
    { error: MESSAGES.conditionNeedsProperty },
  );
export type Condition = z.infer<typeof Condition>;

/** An action matcher with allow (default) or deny, and optional group conditions (at most 20). Deny beats allow. */
export const Permission = z.strictObject({
  actions_matching: Matcher,
  is_denied: z.boolean().default(false),
  is_regex: z.boolean().default(false),
  conditions: z.array(Condition).max(PERMISSION_CONDITIONS_MAX, { error: itemsAtMost(PERMISSION_CONDITIONS_MAX) }).optional(),
});
export type Permission = z.infer<typeof Permission>;

const conditionCount = (permissions: readonly Permission[]): number =>
  permissions.reduce((total, permission) => total + (permission.conditions?.length ?? 0), 0);

/**
 * Create or replace a role: 1 to 200 permissions, at most 300 conditions in all (our bounds: the largest role stays
 * well under DynamoDB's item limit); payload types default to all; alert permissions required.
 */
export const RoleRequest = z
  .strictObject({
    /** The path's role_reference, which the spec's entity carries: may be repeated here, refused when it differs. */
    role_reference: RoleReference.optional(),
    permissions: z
      .array(Permission)
      .min(1, { error: itemsAtLeast(1) })
      .max(ROLE_PERMISSIONS_MAX, { error: itemsBetween(1, ROLE_PERMISSIONS_MAX) }),
    payload_types: z
      .array(PayloadType)
      .max(PAYLOAD_TYPES.length, { error: itemsAtMost(PAYLOAD_TYPES.length) })
      .default([...PAYLOAD_TYPES]),
    cidr_ranges: CidrRanges.default([]),
    alert_permissions: AlertPermissions,
    is_alertable: z.boolean().default(false),
    description: text(0, 1000).optional(),
  })
  .refine((role) => conditionCount(role.permissions) <= ROLE_CONDITIONS_MAX, {
    error: `Must contain at most ${ROLE_CONDITIONS_MAX} conditions in all`,
    path: ['permissions'],
  });
export type RoleRequest = z.infer<typeof RoleRequest>;

export const Role = Audited.extend({
  /** Read as stored: a role saved before references had to be printable (fields.ts) still lists, never a 500. */
  role_reference: z.string(),
  permissions: z.array(z.looseObject({ actions_matching: z.string() })),
  payload_types: z.array(PayloadType),
  cidr_ranges: z.array(z.string()).default([]),
  alert_permissions: AlertPermissions,
  is_alertable: z.boolean().default(false),
  description: z.string().optional(),
  /** System roles cannot be edited. */
  is_system: z.boolean().default(false),
});
export type Role = z.infer<typeof Role>;
