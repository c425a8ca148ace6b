import { ACTION_NAMES, ACTIONS_INCLUDING } from '../contract/actions.ts';
import { parseCidr } from './cidr.ts';
import { evaluate, type RoleLike } from './evaluate.ts';
import { checkPattern, matches, matchesOr } from './matchers.ts';

/**
 * Does what a role grants stay within what the editor holds? (No privilege through role editing: nobody may create,
 * change, delete or assign a role that grants more than their own roles do.) Pure, shared by the role service, the
 * account defaults, client apps, support-access approval and the role editor in the portal.
 *
 * "Covers" is decided on the evaluation model of ./evaluate.ts, conservatively: a grant is accepted only when it is
 * PROVEN to lie within the holder's, and anything this module cannot prove is refused with a sentence saying what:
 * - ACTIONS: every action of the catalogue the role allows (tenant-wide, and on every group its permission applies
 *   to, through an including action too) must be allowed by the held roles on those same groups. The catalogue is
 *   finite, so this part is exact. Actions ADDED LATER are matched by patterns, not by name: a role's allow pattern
 *   must lie within a held allow pattern (wildcards are compared symbol by symbol; a regex only against the very
 *   same regex or a held `*`), on groups proven as below, and every held deny that may match a later action must be
 *   carried by the role too.
 * - GROUPS: a permission's conditions describe a set of groups (names, tag keys, tag values; including and excluding
 *   conditions). Set inclusion over conditions is proven from the matchers: a held condition contains the role's
 *   when each matcher it gives contains the role's matcher of the same kind. A held deny must be carried by the
 *   role (its own deny, or an excluding condition covering the denied groups) unless the role's groups are proven
 *   to lie outside it. Disjointness of two patterns is never assumed.
 * - PAYLOAD TYPES and ALERT PERMISSIONS: a subset of the union over the held roles that apply wherever the role does.
 * - CIDR RANGES: a held role counts only where the role applies, i.e. when its ranges contain all of the role's
 *   (an empty list is "anywhere"); narrower ranges on the role are more restrictive and always fine. A held role's
 *   DENIES count wherever it applies, so they are kept whatever its ranges (stricter, never looser).
 */

/** A role as coverage reads it: evaluation's fields and the alert permissions. */
export interface CoveredRole extends RoleLike {
  alert_permissions?: Partial<Record<AlertPermissionName, boolean>> | undefined;
}

export const ALERT_PERMISSION_NAMES = ['ops_read', 'ops_write', 'sec_read', 'sec_write'] as const;
type AlertPermissionName = (typeof ALERT_PERMISSION_NAMES)[number];

/** One way a role grants more than the held roles: the role's field it lies in, and a plain sentence. */
export interface Excess {
  field: 'permissions' | 'payload_types' | 'alert_permissions' | 'cidr_ranges';
  message: string;
}

/** The most actions one refusal names before it says "and N more". */
const NAMED_ACTIONS_MAX = 6;

interface Condition {
  names?: string;
  keys?: string;
  values?: string;
  isDenied: boolean;
  isRegex: boolean;
}

interface Permission {
  actions: string | undefined;
  isDenied: boolean;
  isRegex: boolean;
  conditions: Condition[];
}

/** A set of groups: those matching one of `include` (or every group), less those matching one of `exclude`. */
interface GroupSet {
  include: Condition[] | 'all';
  exclude: Condition[];
}

/** Groups an allow reaches on one action: `base` less every set in `minus` (the denies that apply). */
interface Piece {
  base: GroupSet;
  minus: GroupSet[];
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function readPermission(raw: RoleLike['permissions'][number]): Permission {
  const conditions = (Array.isArray(raw.conditions) ? raw.conditions : []).filter(isRecord).map(
    (condition): Condition => ({
      ...(textOf(condition.names_matching) === undefined ? {} : { names: textOf(condition.names_matching) }),
      ...(textOf(condition.keys_matching) === undefined ? {} : { keys: textOf(condition.keys_matching) }),
      ...(textOf(condition.values_matching) === undefined ? {} : { values: textOf(condition.values_matching) }),
      isDenied: condition.is_denied === true,
      isRegex: condition.is_regex === true,
    }),
  );
  return { actions: textOf(raw.actions_matching), isDenied: raw.is_denied === true, isRegex: raw.is_regex === true, conditions };
}

/** As evaluation reads it: an unreadable pattern makes a deny match every action and an allow none. */
function matchesAction(permission: Permission, action: string): boolean {
  return permission.actions !== undefined && matchesOr(permission.actions, permission.isRegex, action, permission.isDenied);
}

function groupsOf(permission: Permission): GroupSet {
  if (permission.conditions.length === 0) return { include: 'all', exclude: [] };
  const include = permission.conditions.filter((condition) => !condition.isDenied);
  return { include: include.length === 0 ? 'all' : include, exclude: permission.conditions.filter((condition) => condition.isDenied) };
}

// ---------------------------------------------------------------- patterns

const readable = (pattern: string, isRegex: boolean): boolean => checkPattern(pattern, isRegex) === undefined;
const isUniversalWildcard = (pattern: string): boolean => /^\*+$/.test(pattern);
const isLiteralWildcard = (pattern: string): boolean => !/[*?]/.test(pattern);

/**
 * Does every string wildcard `inner` matches also match wildcard `outer`? Proven symbolically: `outer`'s `*` may take
 * any run of `inner`'s symbols (its `*` and `?` included), `?` one literal or `?` of `inner`, a literal only itself.
 */
function wildcardWithin(inner: string, outer: string): boolean {
  const rows = inner.length + 1;
  // reach[i][j]: outer[0..j) can stand for inner[0..i).
  let previous: boolean[] = Array.from({ length: rows }, (_, i) => i === 0);
  for (let j = 0; j < outer.length; j += 1) {
    const symbol = outer[j];
    const next: boolean[] = new Array<boolean>(rows).fill(false);
    for (let i = 0; i < rows; i += 1) {
      if (symbol === '*') {
        next[i] = previous[i] === true || (i > 0 && next[i - 1] === true);
      } else if (i > 0) {
        const taken = inner[i - 1];
        const fits = symbol === '?' ? taken !== '*' : taken === symbol;
        next[i] = fits && previous[i - 1] === true;
      }
    }
    previous = next;
  }
  return previous[inner.length] === true;
}

/** Is every value `inner` matches also matched by `outer`? False whenever it cannot be proven. */
function patternWithin(inner: string, innerIsRegex: boolean, outer: string, outerIsRegex: boolean): boolean {
  if (!readable(inner, innerIsRegex) || !readable(outer, outerIsRegex)) return false;
  if (inner === outer && innerIsRegex === outerIsRegex) return true;
  if (!outerIsRegex && isUniversalWildcard(outer)) return true;
  if (!innerIsRegex && isLiteralWildcard(inner)) return matches(outer, outerIsRegex, inner);
  if (!innerIsRegex && !outerIsRegex) return wildcardWithin(inner, outer);
  return false;
}

// ---------------------------------------------------------------- group sets

const hasTagMatcher = (condition: Condition): boolean => condition.keys !== undefined || condition.values !== undefined;
const isEmptyCondition = (condition: Condition): boolean => condition.names === undefined && !hasTagMatcher(condition);

/** Does every group `inner` matches also match `outer`? (Name, and one tag matching both the key and value matchers.) */
function conditionWithin(inner: Condition, outer: Condition): boolean {
  if (isEmptyCondition(inner)) return true; // matches no group
  if (isEmptyCondition(outer)) return false;
  const within = (a: string | undefined, b: string | undefined): boolean =>
    b === undefined || (a !== undefined && patternWithin(a, inner.isRegex, b, outer.isRegex));
  if (!within(inner.names, outer.names)) return false;
  if (!hasTagMatcher(outer)) return true;
  return hasTagMatcher(inner) && within(inner.keys, outer.keys) && within(inner.values, outer.values);
}

const single = (condition: Condition): GroupSet => ({ include: [condition], exclude: [] });

/** Does every group `inner` includes fall under one of the conditions `outer` includes? (Exclusions not looked at.) */
function setIncludesWithin(inner: GroupSet, outer: GroupSet): boolean {
  const include = outer.include;
  if (include === 'all') return true;
  return inner.include !== 'all' && inner.include.every((condition) => include.some((candidate) => conditionWithin(condition, candidate)));
}

/** Is group set `inner` within `outer`? Whatever `outer` leaves out must be left out of `inner` too. */
function setWithin(inner: GroupSet, outer: GroupSet): boolean {
  return setIncludesWithin(inner, outer) && outer.exclude.every((left) => excludedFrom(inner, [], left));
}

/** Are all groups `condition` matches outside piece `base` less `minus`? */
function excludedFrom(base: GroupSet, minus: readonly GroupSet[], condition: Condition): boolean {
  if (base.exclude.some((excluded) => conditionWithin(condition, excluded))) return true;
  if (minus.some((removed) => setWithin(single(condition), removed))) return true;
  // `base` includes only groups the condition's complement holds: not provable without pattern disjointness.
  return false;
}

/** Are the groups of `piece` and of `denied` proven apart? */
function pieceAvoids(piece: Piece, denied: GroupSet): boolean {
  // Everything denied is removed from the piece (by one of its own denies or exclusions) …
  if (piece.minus.some((removed) => setWithin(denied, removed))) return true;
  if (denied.include !== 'all' && denied.include.every((condition) => excludedFrom(piece.base, piece.minus, condition))) return true;
  // … or everything the piece includes is left out of the deny.
  return (
    piece.base.include !== 'all' &&
    piece.base.include.every((condition) => denied.exclude.some((excluded) => conditionWithin(condition, excluded)))
  );
}

/** Is every group of `inner` reached by `outer` (within its base, outside each of its denies)? */
function pieceWithin(inner: Piece, outer: Piece): boolean {
  if (!setIncludesWithin(inner.base, outer.base)) return false;
  if (!outer.base.exclude.every((left) => excludedFrom(inner.base, inner.minus, left))) return false;
  return outer.minus.every((denied) => pieceAvoids(inner, denied));
}

/** A piece with several including conditions is their union: split so each part may be covered by another allow. */
function split(piece: Piece): Piece[] {
  const include = piece.base.include;
  if (include === 'all' || include.length <= 1) return [piece];
  return include.map((condition) => ({ base: { include: [condition], exclude: piece.base.exclude }, minus: piece.minus }));
}

// ---------------------------------------------------------------- pieces per action

interface Rules {
  allows: Permission[];
  denies: Permission[];
}

function rulesOf(roles: readonly RoleLike[], allowsToo: (role: RoleLike) => boolean): Rules {
  const rules: Rules = { allows: [], denies: [] };
  for (const role of roles) {
    for (const permission of role.permissions.map(readPermission)) {
      if (permission.isDenied) rules.denies.push(permission);
      else if (allowsToo(role)) rules.allows.push(permission);
    }
  }
  return rules;
}

/** What the rules allow of `action`, as pieces (the evaluation's including actions too). */
function piecesFor(rules: Rules, action: string): Piece[] {
  const deniesOf = (name: string) => rules.denies.filter((deny) => matchesAction(deny, name)).map(groupsOf);
  const direct = deniesOf(action);
  const pieces = rules.allows.filter((allow) => matchesAction(allow, action)).map((allow) => ({ base: groupsOf(allow), minus: direct }));
  for (const including of ACTIONS_INCLUDING[action] ?? []) {
    const through = [...deniesOf(including), ...direct];
    for (const allow of rules.allows.filter((candidate) => matchesAction(candidate, including))) {
      pieces.push({ base: groupsOf(allow), minus: through });
    }
  }
  return pieces;
}

const covered = (piece: Piece, held: readonly Piece[]): boolean =>
  split(piece).every((part) => held.some((candidate) => pieceWithin(part, candidate)));

// ---------------------------------------------------------------- ranges, types, alerts

/** Is every address of `inner` in some range of `outer`? An empty list is every address. */
function rangesWithin(inner: readonly string[], outer: readonly string[]): boolean {
  if (outer.length === 0) return true;
  if (inner.length === 0) return false;
  return inner.every((range) => {
    const a = parseCidr(range);
    if (a === undefined) return true; // an unparsable range contains nothing (evaluation fails closed on it)
    return outer.some((candidate) => {
      const b = parseCidr(candidate);
      return b !== undefined && b.prefix <= a.prefix && a.network - (a.network % 2 ** (32 - b.prefix)) === b.network;
    });
  });
}

// ---------------------------------------------------------------- wording

function listed(items: readonly string[]): string {
  const named = items.slice(0, NAMED_ACTIONS_MAX);
  const rest = items.length - named.length;
  const head = named.join(', ');
  return rest > 0 ? `${head} and ${rest} more` : head;
}

function describeCondition(condition: Condition): string {
  const kind = condition.isRegex ? 'regex' : 'pattern';
  const parts = [
    condition.names === undefined ? undefined : `name ${kind} "${condition.names}"`,
    condition.keys === undefined ? undefined : `tag key ${kind} "${condition.keys}"`,
    condition.values === undefined ? undefined : `tag value ${kind} "${condition.values}"`,
  ].filter((part): part is string => part !== undefined);
  return parts.join(' and ');
}

// ---------------------------------------------------------------- the check

/**
 * What `role` grants beyond the `held` roles, one plain sentence per kind of excess; empty when the held roles are
 * proven to cover it. `catalogue` is the action catalogue (tests may pass a smaller one).
 */
export function grantsBeyond(held: readonly CoveredRole[], role: CoveredRole, catalogue: readonly string[] = ACTION_NAMES): Excess[] {
  const problems: Excess[] = [];
  const ranges = role.cidr_ranges ?? [];
  const applies = (candidate: RoleLike) => rangesWithin(ranges, candidate.cidr_ranges ?? []);
  const reaching = held.filter(applies);
  if (held.length > 0 && reaching.length === 0) {
    problems.push({
      field: 'cidr_ranges',
      message:
        ranges.length === 0
          ? 'It applies from any address, but your roles apply only within their CIDR ranges: give it ranges inside yours'
          : 'Its CIDR ranges reach addresses outside the CIDR ranges of your roles',
    });
  }
  // Held denies count wherever the held role applies, so all are kept: stricter than the held roles, never looser.
  const mine = rulesOf(held, applies);
  const theirs = rulesOf([role], () => true);

  const beyond = catalogue.filter((action) => {
    const wanted = piecesFor(theirs, action);
    if (wanted.length === 0) return false;
    const tenantWide = evaluate([{ ...role, cidr_ranges: [] }], { action }).allowed;
    const heldTenantWide = evaluate(
      [...reaching.map((r) => ({ ...r, cidr_ranges: [] })), { role_reference: '', permissions: mine.denies.map(denyOf) }],
      { action },
    ).allowed;
    if (tenantWide && !heldTenantWide) return true;
    const have = piecesFor(mine, action);
    return !wanted.every((piece) => covered(piece, have));
  });
  if (beyond.length > 0) {
    problems.push({ field: 'permissions', message: `It allows ${listed(beyond)} where your roles do not (on all or some of its groups)` });
  }

  problems.push(...laterActionProblems(theirs, mine, new Set(catalogue)).map((message) => ({ field: 'permissions' as const, message })));

  const types = new Set(reaching.flatMap((candidate) => candidate.payload_types ?? []));
  const extraTypes = (role.payload_types ?? []).filter((type) => !types.has(type));
  if (extraTypes.length > 0) problems.push({ field: 'payload_types', message: `It opens payload types your roles do not: ${extraTypes.join(', ')}` });

  const extraAlerts = ALERT_PERMISSION_NAMES.filter(
    (name) => role.alert_permissions?.[name] === true && !reaching.some((candidate) => candidate.alert_permissions?.[name] === true),
  );
  if (extraAlerts.length > 0) {
    problems.push({ field: 'alert_permissions', message: `It gives alert permissions your roles do not: ${extraAlerts.join(', ')}` });
  }
  return problems;
}

/** A held deny, back as a stored permission (for the tenant-wide evaluation). */
function denyOf(permission: Permission): RoleLike['permissions'][number] {
  return {
    actions_matching: permission.actions ?? '',
    is_denied: true,
    is_regex: permission.isRegex,
    conditions: permission.conditions.map((condition) => ({
      ...(condition.names === undefined ? {} : { names_matching: condition.names }),
      ...(condition.keys === undefined ? {} : { keys_matching: condition.keys }),
      ...(condition.values === undefined ? {} : { values_matching: condition.values }),
      is_denied: condition.isDenied,
      is_regex: condition.isRegex,
    })),
  };
}

/**
 * Actions added to the catalogue later reach a role through its patterns. For each allow pattern that is not an
 * action of today's catalogue by name, a held allow pattern must contain it on the same groups, and a held deny that
 * may match a later action must be carried by a deny of the role whose pattern and groups contain it.
 */
function laterActionProblems(theirs: Rules, mine: Rules, catalogue: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const byName = (permission: Permission) => permission.actions !== undefined && !permission.isRegex && catalogue.has(permission.actions);
  const laterDenies = mine.denies.filter((deny) => !byName(deny));
  for (const allow of theirs.allows) {
    if (byName(allow) || allow.actions === undefined) continue;
    const pattern = allow.actions;
    const containing = (permission: Permission) =>
      permission.actions !== undefined && patternWithin(pattern, allow.isRegex, permission.actions, permission.isRegex);
    const piece: Piece = { base: groupsOf(allow), minus: theirs.denies.filter(containing).map(groupsOf) };
    const heldAllows = mine.allows.filter(containing).map((held) => ({ base: groupsOf(held), minus: [] }));
    const kind = allow.isRegex ? 'regex' : 'pattern';
    if (!covered(piece, heldAllows)) {
      problems.push(
        `Its actions ${kind} "${pattern}" could match actions added later that your roles do not allow: name the actions, or use a pattern within one of yours`,
      );
      continue;
    }
    // A later action both match is removed from the role's groups by its denies whose pattern holds the held one's.
    const uncarried = laterDenies.filter((deny) => {
      const carriedBy = (permission: Permission) =>
        containing(permission) ||
        (deny.actions !== undefined && permission.actions !== undefined && patternWithin(deny.actions, deny.isRegex, permission.actions, permission.isRegex));
      return !pieceAvoids({ base: piece.base, minus: theirs.denies.filter(carriedBy).map(groupsOf) }, groupsOf(deny));
    });
    if (uncarried.length > 0) {
      const deny = uncarried[0] as Permission;
      const scope = deny.conditions.length === 0 ? '' : ` (groups: ${deny.conditions.map(describeCondition).join('; ')})`;
      problems.push(`Your roles deny actions matching "${deny.actions ?? ''}"${scope}: this role must deny them too`);
    }
  }
  return problems;
}

/** True when the held roles cover the role (see `grantsBeyond` for what does not). */
export function covers(held: readonly CoveredRole[], role: CoveredRole, catalogue?: readonly string[]): boolean {
  return grantsBeyond(held, role, catalogue).length === 0;
}
