import type { PayloadType } from '#shared/constants.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import type { GroupFacts } from '#shared/permissions/evaluate.ts';

/** What permission conditions can be checked against: a group's name and its tags. */
export type { GroupFacts };

/**
 * What the caller may do in this tenant, resolved once per request after authentication (user roles or the
 * account's default role, a client app's roles, or the role a support-access request grants) and handed to every
 * route implementation as `input.access`. Services ask it rather than reading roles themselves. Evaluation follows
 * `shared/permissions/evaluate.ts` (deny beats allow; role CIDR ranges checked against `ip`); for the reason of a
 * decision, or the groups a list may show, call `evaluate` / `visibleGroupFilter` there with `roles` and `ip`.
 */
export interface AccessContext {
  /** The roles in force for this call. */
  roles: readonly Role[];
  /** Their references, as recorded in the user activity. */
  roleReferences: readonly string[];
  /** The account's (or the client app's) default user group, if any. */
  userGroup?: string;
  /** Payload types the caller may see (union over its roles that apply from `ip`). */
  payloadTypes: readonly PayloadType[];
  /** True when the call came from a tenant client app (machine access) rather than a portal user. */
  isClientApp: boolean;
  /** Set when provider staff act in the tenant through an approved support-access request. */
  supportReference?: string;
  /** The caller's address (roles with CIDR ranges apply only from inside them). */
  ip?: string;
  /** May the caller perform `action` (`<area>:<Verb>`), tenant-wide or, when given, on that group? */
  can(action: string, group?: GroupFacts): boolean;
  /** Every action of the catalogue the caller may perform somewhere (for the profile and the role editor). */
  allowedActions(): string[];
}
