import type { PermissionLike } from './evaluate.ts';

/** Quoted pattern, so the sentence shows exactly what the rule matches. */
const quote = (pattern: string, isRegex: boolean): string => (isRegex ? `/${pattern}/` : `"${pattern}"`);

function actionsPhrase(pattern: unknown, isRegex: boolean): string {
  if (typeof pattern !== 'string' || pattern.length === 0) return 'no action (the rule has no valid action matcher)';
  if (isRegex) return `actions matching the regular expression ${quote(pattern, true)}`;
  if (/^\*+$/.test(pattern)) return 'every action';
  if (!/[*?]/.test(pattern)) return `the action "${pattern}"`;
  return `actions matching ${quote(pattern, false)}`;
}

function conditionPhrase(condition: Record<string, unknown>): string {
  const isRegex = condition.is_regex === true;
  const verb = isRegex ? 'matches' : 'is like';
  const parts: string[] = [];
  if (typeof condition.names_matching === 'string') parts.push(`whose name ${verb} ${quote(condition.names_matching, isRegex)}`);
  const key = typeof condition.keys_matching === 'string' ? condition.keys_matching : undefined;
  const value = typeof condition.values_matching === 'string' ? condition.values_matching : undefined;
  if (key !== undefined && value !== undefined) {
    parts.push(`with a tag whose key ${verb} ${quote(key, isRegex)} and whose value ${verb} ${quote(value, isRegex)}`);
  } else if (key !== undefined) {
    parts.push(`with a tag whose key ${verb} ${quote(key, isRegex)}`);
  } else if (value !== undefined) {
    parts.push(`with a tag whose value ${verb} ${quote(value, isRegex)}`);
  }
  return parts.length === 0 ? 'matching nothing (the condition names no property)' : parts.join(' and ');
}

/**
 * One plain-English sentence saying what a permission grants or takes away, for the role editor. Follows the
 * semantics of `evaluate` (see evaluate.ts), e.g.
 * `Denies actions matching "roles:*" on groups whose name is like "sales-*", except groups with a tag whose key is like "vip".`
 */
export function explainPermission(permission: PermissionLike): string {
  const isRegex = permission.is_regex === true;
  const verb = permission.is_denied === true ? 'Denies' : 'Allows';
  const conditions = Array.isArray(permission.conditions)
    ? permission.conditions.filter((condition): condition is Record<string, unknown> => typeof condition === 'object' && condition !== null)
    : [];
  const including = conditions.filter((condition) => condition.is_denied !== true).map(conditionPhrase);
  const excluding = conditions.filter((condition) => condition.is_denied === true).map(conditionPhrase);
  let scope = '';
  if (including.length > 0) scope = ` on groups ${including.join(', or ')}`;
  else if (excluding.length > 0) scope = ' on every group';
  else if (verb === 'Denies') scope = ', everywhere';
  if (excluding.length > 0) scope += `, except groups ${excluding.join(', or ')}`;
  return `${verb} ${actionsPhrase(permission.actions_matching, isRegex)}${scope}.`;
}
