import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { Principal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Role } from '#shared/contract/entities/roles.ts';

/** A role no condition narrows: every action, every payload type, every group (the admin role's reach). */
const everything = {
  role_reference: 'admin',
  permissions: [{ actions_matching: '*' }],
  payload_types: [...PAYLOAD_TYPES],
  cidr_ranges: [],
  is_system: true,
} as unknown as Role;

/**
 * The caller of a service a test calls directly, as its route would: an admin of `client` acting for `action` (the
 * endpoint's), with the group and payload scopes that reach everything.
 */
export function adminCaller(deps: Partial<Dependencies>, client: string, action: string, principal?: Principal) {
  const access = createAccessContext({ roles: [everything], ip: undefined, isClientApp: false });
  return tenantCaller(deps, client, access, { action, ...(principal === undefined ? {} : { principal }) });
}
