import { PAYLOAD_TYPES, type PayloadType } from '../constants/payloads.ts';
import { actionInWords } from '../contract/action-wording.ts';
import { ACTIONS_INCLUDING } from '../contract/actions.ts';
import { ipAllowedBy } from './cidr.ts';
import { matchesOr } from './matchers.ts';

/**
 * Permission evaluation (spec points 3 and 6, DESIGN.md §6). Pure: no I/O, the same code runs in the backend and
 * in the role editor.
 *
 * Semantics:
 * - A ROLE applies to a call only when the caller's ip lies in one of its `cidr_ranges` (an empty list: anywhere).
 *   A role with ranges never applies when the ip is unknown.
 * - A PERMISSION matches an action when its `actions_matching` matcher does (wildcard `*` / `?`, or RE2 regex when
 *   `is_regex`; anchored, case-sensitive; see matchers.ts). `is_denied` makes it a deny, else it is an allow.
 * - CONDITIONS narrow a permission to groups. A condition matches a group when ALL the matchers it gives hold:
 *   `names_matching` on the group's name; `keys_matching` and `values_matching` on one and the same tag of the
 *   group (a null tag value reads as the empty string). The condition's own `is_regex` picks the matcher kind.
 *   A condition with `is_denied` EXCLUDES the groups it matches. So a permission with conditions applies to a group
 *   when no excluding condition matches it and, if it has any including conditions, at least one of them matches.
 *   A permission without conditions applies to every group.
 * - DENY BEATS ALLOW across all applicable roles: an action on a group is allowed when some applicable allow
 *   permission matches the action and applies to the group, and no applicable deny permission does.
 * - A call WITHOUT a group (tenant-wide: lists, settings) is allowed when some allow permission matches the action,
 *   conditional or not, and no UNCONDITIONAL deny matches it; the conditions then decide which groups the caller
 *   sees (`visibleGroupFilter`). A conditional deny only hides the groups it applies to.
 * - An action another INCLUDES (shared/contract/actions.ts ACTIONS_INCLUDING: `payloads:Download` includes
 *   `payloads:Play`) is allowed where the including action is, unless a permission denies the action itself.
 * - The result never depends on the order of roles or permissions.
 */

/** What conditions are checked against: a group's name and its tags. */
export interface GroupFacts {
  name: string;
  tags: ReadonlyArray<{ tag_key: string; tag_value: string | null }>;
}

/** A permission as stored (contract `Permission`); read defensively, since stored items may predate a rule. */
export interface PermissionLike {
  actions_matching: string;
  [field: string]: unknown;
}

/** The parts of a role (contract `Role`) evaluation reads. */
export interface RoleLike {
  role_reference: string;
  permissions: readonly PermissionLike[];
  payload_types?: readonly string[];
  cidr_ranges?: readonly string[];
}

export interface EvaluationRequest {
  /** `<area>:<Verb>`. */
  action: string;
  /** The group acted on, when the action concerns one. */
  group?: GroupFacts;
  /** The caller's address, for role CIDR ranges. */
  ip?: string;
}

export interface Evaluation {
  allowed: boolean;
  /** One plain sentence: which role allowed or denied, or why nothing did. */
  reason: string;
}

interface NormalCondition {
  names?: string;
  keys?: string;
  values?: string;
  isDenied: boolean;
  isRegex: boolean;
}

interface NormalPermission {
  actions: string | undefined;
  isDenied: boolean;
  isRegex: boolean;
  conditions: NormalCondition[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function normalCondition(raw: Record<string, unknown>): NormalCondition {
  return {
    names: text(raw.names_matching),
    keys: text(raw.keys_matching),
    values: text(raw.values_matching),
    isDenied: raw.is_denied === true,
    isRegex: raw.is_regex === true,
  };
}

/** Fail closed: a matcher that is not a string matches nothing; a non-object condition is dropped. */
function normalPermission(raw: PermissionLike): NormalPermission {
  const conditions = Array.isArray(raw.conditions) ? raw.conditions.filter(isRecord).map(normalCondition) : [];
  return { actions: text(raw.actions_matching), isDenied: raw.is_denied === true, isRegex: raw.is_regex === true, conditions };
}

/** An unreadable action pattern fails closed: a deny then covers every action, an allow none. */
function actionMatches(permission: NormalPermission, action: string): boolean {
  return permission.actions !== undefined && matchesOr(permission.actions, permission.isRegex, action, permission.isDenied);
}

/**
 * All given matchers must hold; a condition giving none matches nothing. An unreadable pattern fails closed: it
 * holds where that narrows access (an allow's excluding condition, a deny's including one), else it does not.
 */
function conditionMatches(permission: NormalPermission, condition: NormalCondition, group: GroupFacts): boolean {
  const { names, keys, values, isRegex } = condition;
  const whenUnreadable = permission.isDenied !== condition.isDenied;
  const matches = (pattern: string, value: string): boolean => matchesOr(pattern, isRegex, value, whenUnreadable);
  if (names === undefined && keys === undefined && values === undefined) return false;
  if (names !== undefined && !matches(names, group.name)) return false;
  if (keys === undefined && values === undefined) return true;
  return group.tags.some(
    (tag) =>
      (keys === undefined || matches(keys, tag.tag_key)) &&
      (values === undefined || matches(values, tag.tag_value ?? '')),
  );
}

function appliesToGroup(permission: NormalPermission, group: GroupFacts): boolean {
  if (permission.conditions.length === 0) return true;
  const including = permission.conditions.filter((condition) => !condition.isDenied);
  const excluding = permission.conditions.filter((condition) => condition.isDenied);
  if (excluding.some((condition) => conditionMatches(permission, condition, group))) return false;
  return including.length === 0 || including.some((condition) => conditionMatches(permission, condition, group));
}

/** Roles sorted by reference, so reasons (not only outcomes) are independent of the input order. */
function sorted<R extends RoleLike>(roles: readonly R[]): R[] {
  return [...roles].sort((a, b) => (a.role_reference < b.role_reference ? -1 : a.role_reference > b.role_reference ? 1 : 0));
}

/** The roles that apply to a caller at `ip` (role CIDR ranges). */
export function applicableRoles<R extends RoleLike>(roles: readonly R[], ip: string | undefined): R[] {
  return roles.filter((role) => ipAllowedBy(ip, role.cidr_ranges));
}

interface Verdict {
  allowedBy?: string;
  deniedBy?: { role: string; pattern: string };
}

function verdict(roles: readonly RoleLike[], action: string, group: GroupFacts | undefined): Verdict {
  const result: Verdict = {};
  for (const role of sorted(roles)) {
    for (const raw of role.permissions) {
      const permission = normalPermission(raw);
      if (!actionMatches(permission, action)) continue;
      const applies = group === undefined ? !permission.isDenied || permission.conditions.length === 0 : appliesToGroup(permission, group);
      if (!applies) continue;
      // Keep the smallest (role, pattern) so the reason, like the outcome, ignores the order of the input.
      if (permission.isDenied) {
        const candidate = { role: role.role_reference, pattern: permission.actions ?? '' };
        const current = result.deniedBy;
        if (current === undefined || `${candidate.role}\u0000${candidate.pattern}` < `${current.role}\u0000${current.pattern}`) {
          result.deniedBy = candidate;
        }
      } else {
        result.allowedBy ??= role.role_reference;
      }
    }
  }
  return result;
}

/** The decision on `action` by its own permissions only, and whether a deny made it. */
function evaluateAction(roles: readonly RoleLike[], request: EvaluationRequest): Evaluation & { denied: boolean } {
  const { action, group, ip } = request;
  const applicable = applicableRoles(roles, ip);
  const { allowedBy, deniedBy } = verdict(applicable, action, group);
  const where = group === undefined ? '' : ` on group "${group.name}"`;
  if (deniedBy !== undefined) {
    return { allowed: false, denied: true, reason: `role "${deniedBy.role}" denies ${action}${where} (actions matching "${deniedBy.pattern}")` };
  }
  if (allowedBy !== undefined) return { allowed: true, denied: false, reason: `role "${allowedBy}" allows ${action}${where}` };
  // Say so when a role would have allowed it from another address: the caller can act on that.
  const excluded = roles.filter((role) => !applicable.includes(role));
  const wouldAllow = verdict(excluded, action, group).allowedBy;
  if (wouldAllow !== undefined) {
    return { allowed: false, denied: false, reason: `${ip ?? 'an unknown address'} is outside the CIDR ranges of role "${wouldAllow}"` };
  }
  return { allowed: false, denied: false, reason: `your roles do not allow ${actionInWords(action)}${where}` };
}

/**
 * May the roles perform the action (on the group, from the ip)? Deny beats allow; see the module notes. An action
 * another includes (ACTIONS_INCLUDING: `payloads:Download` includes `payloads:Play`) is also allowed where that other
 * action is, unless a permission denies the action itself.
 */
export function evaluate(roles: readonly RoleLike[], request: EvaluationRequest): Evaluation {
  const { denied, ...direct } = evaluateAction(roles, request);
  if (direct.allowed || denied) return direct;
  for (const including of ACTIONS_INCLUDING[request.action] ?? []) {
    const through = evaluateAction(roles, { ...request, action: including });
    if (through.allowed) return { allowed: true, reason: `${through.reason}, which includes ${request.action}` };
  }
  return direct;
}

/** Which groups a tenant-wide call (a list) may show. `unrestricted` lets a list skip per-item checks. */
export interface GroupFilter {
  unrestricted: boolean;
  allows(group: GroupFacts): boolean;
}

export function visibleGroupFilter(roles: readonly RoleLike[], action: string, ip?: string): GroupFilter {
  return { unrestricted: unrestrictedFor(roles, action, ip), allows: (group) => evaluate(roles, { action, group, ip }).allowed };
}

/** No deny touches the action and an unconditional allow grants it (itself, or an action including it). */
function unrestrictedFor(roles: readonly RoleLike[], action: string, ip: string | undefined): boolean {
  const permissions = applicableRoles(roles, ip)
    .flatMap((role) => role.permissions.map(normalPermission))
    .filter((permission) => actionMatches(permission, action));
  if (permissions.some((permission) => permission.isDenied)) return false;
  if (permissions.some((permission) => permission.conditions.length === 0)) return true;
  return (ACTIONS_INCLUDING[action] ?? []).some((including) => unrestrictedFor(roles, including, ip));
}

/** Payload types the roles open, in the catalogue's order (a union over the roles). */
export function payloadTypesOf(roles: readonly RoleLike[]): PayloadType[] {
  const granted = new Set(roles.flatMap((role) => role.payload_types ?? []));
  return PAYLOAD_TYPES.filter((type) => granted.has(type));
}

/** The catalogue's actions the roles allow somewhere (tenant-wide evaluation), in catalogue order. */
export function allowedActions(
  roles: readonly RoleLike[],
  catalogue: ReadonlyArray<string | { action: string }>,
  ip?: string,
): string[] {
  return catalogue
    .map((entry) => (typeof entry === 'string' ? entry : entry.action))
    .filter((action) => evaluate(roles, { action, ip }).allowed);
}
