import { PAYLOAD_TYPES } from '../constants/payloads.ts';
import type { Role } from '../contract/entities/roles.ts';

/**
 * The provider staff's system roles (client `admin`). A staff token names its roles in the identity provider's group
 * claim (`cognito:groups`), as a tenant user's does; the internal console's actions (`internal:*` in the action
 * catalogue) are then checked by the same permission evaluation as every tenant endpoint.
 *
 * Decision: defined here, in code, rather than only as seeded items, so every deployment (Cognito staff pool or the
 * local provider) has them without a data migration, and the backend, the seed and the tests read one definition.
 * The local seed writes them as system roles of client `admin` too (the role lists show them; support mode may grant
 * one in a tenant); a role stored there under the same name is read first.
 */

/** Every internal read: the console's lists and single records, and nothing that changes anything. */
export const STAFF_READ_PATTERNS = ['internal:List*', 'internal:Read*'] as const;

const allow = (pattern: string) => ({ actions_matching: pattern, is_denied: false, is_regex: false });

function staffRole(reference: string, description: string, patterns: readonly string[], writes: boolean): Role {
  return {
    client: 'admin',
    role_reference: reference,
    description,
    permissions: patterns.map(allow),
    payload_types: [...PAYLOAD_TYPES],
    cidr_ranges: [],
    alert_permissions: { ops_read: true, ops_write: writes, sec_read: true, sec_write: writes },
    is_alertable: writes,
    is_system: true,
  };
}

/** By reference: `staff` uses the whole console; `support` reads it and is refused every internal write. */
export const STAFF_ROLES: Readonly<Record<string, Role>> = {
  staff: staffRole('staff', 'Provider staff: the whole internal console', ['*'], true),
  support: staffRole('support', 'Provider support desk: reads the internal console, changes nothing', STAFF_READ_PATTERNS, false),
};

/** The system staff roles named by a group claim, in the claim's order (unknown names are not system roles). */
export function systemStaffRoles(groups: readonly string[]): Role[] {
  return [...new Set(groups)].flatMap((reference) => (Object.hasOwn(STAFF_ROLES, reference) ? [STAFF_ROLES[reference] as Role] : []));
}
