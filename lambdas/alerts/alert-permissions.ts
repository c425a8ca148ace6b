import type { Actor } from '#shared/contract/entities/actor.ts';
import type { AlertScope } from '#shared/constants/alerts.ts';
import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { applicableRoles } from '#shared/permissions/evaluate.ts';
import type { AccessContext } from '../core/auth/access/access-context.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { userId } from './alert-model.ts';

/**
 * What a caller may do with alerts, per scope: the union of `alert_permissions` over the roles in force from the
 * caller's address (a role outside its CIDR ranges grants nothing). Read gates lists, get, summary and dismiss;
 * write gates clear.
 */
export interface AlertAccess {
  /** Who the caller is in `dismissed_by` and the per-user counters: their stable reference (core/auth/actor.ts). */
  user: string;
  /** Keys that named the caller before (their e-mail): dismissals and counters under them are still theirs. */
  formerly: readonly string[];
  /** Every key the caller's dismissals may be under: `user`, then `formerly`. */
  keys(): string[];
  /** The caller as a record names them (name and e-mail at the time), kept beside a dismissal. */
  actor?: Actor | undefined;
  canRead(scope: AlertScope): boolean;
  canWrite(scope: AlertScope): boolean;
  /** The scopes the caller may read, in contract order. */
  readableScopes(): AlertScope[];
}

/**
 * Who acts on a tenant's alerts: the route's caller (its ports and tenant) with its alert rights attached, which the
 * route works out by surface (roles on the tenant surface, full on the internal console); a job builds one of its own.
 */
export interface AlertsCaller<D = Pick<Dependencies, 'table' | 'clock' | 'cursors'>> {
  deps: D;
  tenant: string;
  alerts: AlertAccess;
}

/** Who calls: a bare key (a job), or the keys and actor `alertKeysOf` and `actorRecordOf` give for a caller. */
export type AlertCaller = string | { user: string; formerly: readonly string[]; actor?: Actor | undefined };

const NONE: AlertPermissions = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
const FULL: AlertPermissions = { ops_read: true, ops_write: true, sec_read: true, sec_write: true };

/** Union of the permissions of the given roles. */
export function unionPermissions(roles: ReadonlyArray<{ alert_permissions?: AlertPermissions | undefined }>): AlertPermissions {
  return roles.reduce<AlertPermissions>(
    (all, role) => ({
      ops_read: all.ops_read || role.alert_permissions?.ops_read === true,
      ops_write: all.ops_write || role.alert_permissions?.ops_write === true,
      sec_read: all.sec_read || role.alert_permissions?.sec_read === true,
      sec_write: all.sec_write || role.alert_permissions?.sec_write === true,
    }),
    NONE,
  );
}

/** AlertAccess over explicit permissions. */
export function alertAccessOf(who: AlertCaller, permissions: AlertPermissions): AlertAccess {
  const { user, formerly, actor } = typeof who === 'string' ? { user: who, formerly: [], actor: undefined } : who;
  const access: AlertAccess = {
    user,
    formerly,
    actor,
    keys: () => [user, ...formerly].map(userId),
    canRead: (scope) => permissions[`${scope}_read`],
    canWrite: (scope) => permissions[`${scope}_write`],
    readableScopes: () => (['ops', 'sec'] as const).filter((scope) => access.canRead(scope)),
  };
  return access;
}

/** The caller's AlertAccess from the request's AccessContext (roles applicable from its address). */
export function alertAccessFromContext(user: AlertCaller, access: AccessContext | undefined): AlertAccess {
  if (access === undefined) return alertAccessOf(user, NONE);
  return alertAccessOf(user, unionPermissions(applicableRoles(access.roles, access.ip)));
}

/** Provider staff on the internal console act as full-permission operators of a client's alerts. */
export function staffAlertAccess(user: AlertCaller): AlertAccess {
  return alertAccessOf(user, FULL);
}
