import { callAction, type Endpoint } from '#shared/contract/endpoint.ts';
import { supportModeRefusalOf } from '#shared/contract/support-mode.ts';
import { AccountDefaults } from '#shared/contract/entities/account.ts';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { ipAllowedBy } from '#shared/permissions/cidr.ts';
import { evaluate } from '#shared/permissions/evaluate.ts';
import { systemStaffRoles } from '#shared/permissions/staff-roles.ts';
import { ADMIN_CLIENT, type ClientAppPrincipal, type UserPrincipal } from '../principal.ts';
import type { Dependencies } from '../../dependencies.ts';
import { ForbiddenError, InternalError } from '../../errors.ts';
import type { TableStore } from '../../ports/table-store.ts';
import { readAccount } from '../../store/entities/account.ts';
import { accountDefaultsKey, readAccountDefaults } from '../../store/entities/account-defaults.ts';
import { readRole } from '../../store/entities/role.ts';
import { claimedSupportGrant } from '../../store/entities/support-access.ts';
import { keys } from '../../store/keys.ts';
import type { AccessContext } from './access-context.ts';
import { createAccessContext } from './create-access-context.ts';

/** A network limit beyond the roles' own: the account's ranges, or a client app's. */
export interface CidrLimit {
  owner: "the account's" | "the client app's";
  ranges: readonly string[];
}

/** What authorization needs: the access in force and the network limits to check before it. */
export interface ResolvedAccess {
  access: AccessContext;
  limits: readonly CidrLimit[];
}

export interface AccessRequest {
  endpoint: Endpoint;
  principal: UserPrincipal | ClientAppPrincipal;
  /** The path's `{client}`. */
  client: string | undefined;
  /** The caller's address (`requestContext.http.sourceIp`). */
  ip: string | undefined;
}

type AccessDependencies = Pick<Dependencies, 'table' | 'clock' | 'logger'>;

/** Roles that exist among the references, in the references' order; unknown names are ignored. */
async function loadRoles(table: TableStore, client: string, references: readonly string[], logger: AccessDependencies['logger']) {
  const unique = [...new Set(references)].filter((reference) => reference.length > 0 && reference.length <= 255);
  if (unique.length === 0) return [];
  const items = await table.batchGet(unique.map((reference) => keys.role.item(client, reference)));
  const roles: Role[] = [];
  for (const item of items) {
    try {
      roles.push(readRole(item));
    } catch (error) {
      // A corrupt role grants nothing; say so in the log rather than failing every call of the tenant.
      if (!(error instanceof InternalError)) throw error;
      logger.warn('role item unreadable, ignored', { client, role_key: item.sk, problems: error.message });
    }
  }
  return roles.sort((a, b) => unique.indexOf(a.role_reference) - unique.indexOf(b.role_reference));
}

/**
 * A staff user's roles: the roles of the provider's own client (`admin`) that the group claim names, and for a name
 * not stored there, the system staff role of that name (shared/permissions/staff-roles.ts), so a deployment whose
 * `admin` client holds no roles yet still knows `staff` and `support`. No known role: no staff action is allowed.
 */
async function loadStaffRoles(table: TableStore, groups: readonly string[], logger: AccessDependencies['logger']): Promise<Role[]> {
  const stored = await loadRoles(table, ADMIN_CLIENT, groups, logger);
  const storedNames = new Set(stored.map((role) => role.role_reference));
  return [...stored, ...systemStaffRoles(groups.filter((group) => !storedNames.has(group)))];
}

/**
 * The account defaults: the `DEFAULTS` setting, or (older seeds) `account_defaults` on the account item. A corrupt
 * item is a 500, not "no limits": the account's CIDR ranges must never silently vanish.
 */
async function loadDefaults(table: TableStore, client: string): Promise<AccountDefaults> {
  const setting = await table.get(accountDefaultsKey(client));
  if (setting !== undefined) return readAccountDefaults(setting);
  const account = await table.get(keys.account.item(client));
  const parsed = AccountDefaults.safeParse((account === undefined ? undefined : readAccount(account).account_defaults) ?? {});
  if (!parsed.success) throw new InternalError(`Account defaults of ${client} are unreadable`);
  return parsed.data;
}

/** The approved, unexpired support-access request, or a 403 saying what is wrong with it. */
async function loadSupportRequest(dependencies: AccessDependencies, client: string, reference: string): Promise<SupportAccess> {
  const item = await dependencies.table.get(keys.supportAccess.key(client, reference), { consistent: true });
  const request = item === undefined ? undefined : claimedSupportGrant(item);
  if (request === undefined) throw new ForbiddenError(`Support access denied: request ${reference} does not exist for ${client}`);
  if (request.approval_state !== 'approved') {
    throw new ForbiddenError(`Support access denied: request ${reference} is ${request.approval_state}`);
  }
  const expiry = request.approval_expiry === undefined ? Number.NaN : Date.parse(request.approval_expiry);
  if (!Number.isFinite(expiry) || expiry <= dependencies.clock.now().getTime()) {
    throw new ForbiddenError(`Support access denied: request ${reference} expired at ${request.approval_expiry ?? 'an unknown time'}`);
  }
  return request;
}

/**
 * Resolves what the caller may do (DESIGN.md §6):
 * - internal console (and the staff's own client `admin`): staff, with the staff roles their group claim names
 *   (stored roles of client `admin`, else the system staff roles of those names); `authorize` checks the action;
 * - support mode: the role of the approved, unexpired request (a tenant role, else a system role of the provider);
 *   the account's CIDR ranges do not apply (the tenant's approval is the gate), the role's own ranges do;
 * - client app: the app's roles, limited by the account's and the app's CIDR ranges;
 * - portal user: the roles named by the group claim that exist, else the account's default role; limited by the
 *   account's CIDR ranges.
 * Throws ForbiddenError (support mode refusals) before any access exists.
 */
export async function resolveAccess(dependencies: AccessDependencies, request: AccessRequest): Promise<ResolvedAccess> {
  const { endpoint, principal, client, ip } = request;
  const { table, logger } = dependencies;

  const isStaff = principal.kind === 'user' && principal.client === ADMIN_CLIENT && principal.supportReference === undefined;
  if (endpoint.surface === 'internal' || client === undefined || (isStaff && client === ADMIN_CLIENT)) {
    const roles = isStaff && principal.kind === 'user' ? await loadStaffRoles(table, principal.groups, logger) : [];
    return { access: createAccessContext({ roles, ip, isClientApp: false }), limits: [] };
  }

  if (principal.kind === 'user' && principal.supportReference !== undefined) {
    const support = await loadSupportRequest(dependencies, client, principal.supportReference);
    let roles = await loadRoles(table, client, [support.role], logger);
    if (roles.length === 0) roles = await loadStaffRoles(table, [support.role], logger);
    if (roles.length === 0) throw new ForbiddenError(`Support access denied: role ${support.role} does not exist`);
    return {
      access: createAccessContext({ roles, ip, isClientApp: false, supportReference: principal.supportReference }),
      limits: [],
    };
  }

  const defaults = await loadDefaults(table, client);
  const limits: CidrLimit[] = [{ owner: "the account's", ranges: defaults.cidr_ranges }];
  if (principal.kind === 'client-app') {
    limits.push({ owner: "the client app's", ranges: principal.cidrRanges });
    const roles = await loadRoles(table, client, principal.roles, logger);
    const userGroup = principal.group ?? defaults.user_group;
    return { access: createAccessContext({ roles, ip, isClientApp: true, ...(userGroup ? { userGroup } : {}) }), limits };
  }

  let roles = await loadRoles(table, client, principal.groups, logger);
  if (roles.length === 0 && defaults.role !== undefined) roles = await loadRoles(table, client, [defaults.role], logger);
  return {
    access: createAccessContext({ roles, ip, isClientApp: false, ...(defaults.user_group ? { userGroup: defaults.user_group } : {}) }),
    limits,
  };
}

/** A 403 whose cause is the caller's network address (account, client app or role ranges): a security event. */
export class CidrRefusedError extends ForbiddenError {}

/**
 * Actions every authenticated caller may perform on themselves, whatever their roles: reading one's own profile is
 * how the portal learns what the user may do (and can say "you have no access" instead of failing to load); reading
 * and accepting the terms of use is what the portal's terms guard asks of every user before anything else.
 * Network limits still apply.
 */
export const SELF_SERVICE_ACTIONS: ReadonlySet<string> = new Set(['profile:Read', 'profile:AcceptTerms']);

/**
 * The authorization decision for one call: network limits first, then the action the call needs (the endpoint's, or
 * the one its parsed `query` chooses: `callAction`), refused in support mode when it would create something that
 * outlives the grant. Throws a 403 that says why. The internal console is governed the
 * same way, by the staff roles (`internal:*` actions).
 */
export function authorize(resolved: ResolvedAccess, endpoint: Endpoint, query?: unknown): void {
  const { access, limits } = resolved;
  const action = callAction(endpoint, query);
  for (const limit of limits) {
    if (!ipAllowedBy(access.ip, limit.ranges)) {
      throw new CidrRefusedError(`Access denied: ${access.ip ?? 'an unknown address'} is outside ${limit.owner} allowed CIDR ranges`);
    }
  }
  if (SELF_SERVICE_ACTIONS.has(action)) return;
  // Whatever the granted role allows, support mode creates nothing that outlives its grant (shared/contract/support-mode.ts).
  const supportRefusal = access.supportReference === undefined ? undefined : supportModeRefusalOf(action);
  if (supportRefusal !== undefined) throw new ForbiddenError(supportRefusal);
  const decision = evaluate(access.roles, { action, ip: access.ip });
  if (decision.allowed) return;
  // Refused only because of where the caller is: the roles would allow it from inside their ranges.
  const anywhere = access.roles.map((role) => ({ ...role, cidr_ranges: [] }));
  const networkOnly = evaluate(anywhere, { action, ip: access.ip }).allowed;
  throw new (networkOnly ? CidrRefusedError : ForbiddenError)(`Access denied: ${decision.reason}`);
}
