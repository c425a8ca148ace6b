import type { AccessContext } from '#core/auth/access/access-context.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ForbiddenError } from '#core/errors.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { readRole } from '#core/store/entities/role.ts';
import { keys } from '#core/store/keys.ts';
import type { Role, RoleRequest } from '#shared/contract/entities/roles.ts';
import { grantsBeyond, type CoveredRole } from '#shared/permissions/coverage.ts';
import { rolePatternIssues } from './role-patterns.ts';

/**
 * No privilege through role editing (docs/decisions.md, "Role editing grants no more than the editor holds"): nobody
 * creates, changes, deletes or assigns a role that grants more than the roles they act with (`access.roles`: their
 * own roles, a client app's, or the role a support-access grant gives), and nobody changes or deletes a role they
 * hold. What "more" means is `grantsBeyond` in shared/permissions/coverage.ts, proven or refused.
 *
 * Each check runs before the service's write and answers 403 with one `path: message` line per excess. System roles
 * stay read-only by the role service's own conditional write: these checks leave a system role to it, so everyone,
 * holder or not, hears the same 409 "System roles cannot be changed".
 */

type Table = Pick<TableStore, 'get' | 'batchGet'>;

/** Who is editing: the tenant, the table the roles are read from, and the roles they act with (`access.roles`). */
type GuardedCaller = Pick<TenantCaller, 'tenant' | 'access'> & { deps: { table: Table } };

const quoted = (reference: string) => `"${reference}"`;

/** The roles the caller acts with; none when the call carries no access (it is then refused everything). */
const heldBy = (access: AccessContext | undefined): readonly Role[] => access?.roles ?? [];

function excessLines(access: AccessContext | undefined, role: CoveredRole, line: (field: string, message: string) => string): string[] {
  return grantsBeyond(heldBy(access), role).map((excess) => line(excess.field, excess.message));
}

/** 403 when the caller holds the role: a role holder widening their own role is the escalation itself. */
function refuseHeld(access: AccessContext | undefined, roleReference: string, verb: 'change' | 'delete'): void {
  if (access?.roleReferences.includes(roleReference) === true) {
    throw new ForbiddenError(
      `params.role_reference: You hold role ${quoted(roleReference)}, so you cannot ${verb} it; ask someone who does not hold it`,
    );
  }
}

/** The stored role, or `system` (the service answers those with its 409, for everyone), or undefined when missing. */
async function storedRole(table: Table, client: string, roleReference: string): Promise<Role | 'system' | undefined> {
  const item = await table.get(keys.role.item(client, roleReference), { consistent: true });
  if (item === undefined) return undefined;
  const role = readRole(item);
  return role.is_system ? 'system' : role;
}

/** Before a role PUT: not a held role, the stored role within the caller's reach, and the new one too. */
export async function assertRolePutWithinOwn(caller: GuardedCaller, roleReference: string, request: RoleRequest): Promise<void> {
  // A body the role service refuses anyway answers its 400 first: an unreadable matcher is no grant to weigh.
  if (rolePatternIssues(request).length > 0) return;
  const { access } = caller;
  const stored = await storedRole(caller.deps.table, caller.tenant, roleReference);
  if (stored === 'system') return;
  refuseHeld(access, roleReference, 'change');
  const lines: string[] = [];
  if (stored !== undefined) {
    lines.push(
      ...excessLines(access, stored, (_, message) => `params.role_reference: Role ${quoted(roleReference)} already grants more than your roles, so you cannot change it. ${message}`),
    );
  }
  const proposed: CoveredRole = { role_reference: roleReference, ...request };
  lines.push(...excessLines(access, proposed, (field, message) => `body.${field}: You cannot grant more than your own roles allow. ${message}`));
  if (lines.length > 0) throw new ForbiddenError(lines);
}

/** Before a role DELETE: not a held role, and the stored role within the caller's reach (its denies bind others). */
export async function assertRoleDeleteWithinOwn(caller: GuardedCaller, roleReference: string): Promise<void> {
  const { access } = caller;
  const stored = await storedRole(caller.deps.table, caller.tenant, roleReference);
  if (stored === 'system') return;
  refuseHeld(access, roleReference, 'delete');
  if (stored === undefined) return;
  const lines = excessLines(
    access,
    stored,
    (_, message) => `params.role_reference: Role ${quoted(roleReference)} grants more than your roles, so you cannot delete it. ${message}`,
  );
  if (lines.length > 0) throw new ForbiddenError(lines);
}

/**
 * Before a role is given (account defaults' role, a client app's roles, a support-access approval): each named role
 * that exists must lie within the caller's roles. `paths` name each role's place in the request (`body.roles.0`).
 * Unknown roles are left to the service, which answers them as 400s, unless `unknown` is `refuse` (a support-access
 * approval, whose role was checked when staff asked and may have been deleted since).
 */
export async function assertAssignedWithinOwn(
  caller: GuardedCaller,
  assigned: ReadonlyArray<{ path: string; role: string }>,
  options: { unknown: 'leave' | 'refuse' } = { unknown: 'leave' },
): Promise<void> {
  if (assigned.length === 0) return;
  const { deps: { table }, tenant: client, access } = caller;
  const unique = [...new Set(assigned.map((entry) => entry.role))];
  const found = new Map(
    (await table.batchGet(unique.map((role) => keys.role.item(client, role)))).map((item) => {
      const role = readRole(item);
      return [role.role_reference, role] as const;
    }),
  );
  const lines = assigned.flatMap(({ path, role }) => {
    const stored = found.get(role);
    if (stored === undefined) {
      return options.unknown === 'refuse' ? [`${path}: Role ${quoted(role)} is not a role of this tenant, so you cannot give it`] : [];
    }
    return excessLines(access, stored, (_, message) => `${path}: Role ${quoted(role)} grants more than your own roles, so you cannot give it. ${message}`);
  });
  if (lines.length > 0) throw new ForbiddenError(lines);
}
