import type { RoleRequest } from '#shared/contract/entities/roles.ts';
import { checkPattern } from '#shared/permissions/matchers.ts';

/**
 * A tenant's regex runs in every permission check, so a role stores only matchers our linear-time engine reads
 * (`shared/permissions/linear-regex/`, an RE2 subset: no back-references or look-around): the same `checkPattern` the
 * evaluator compiles with.
 * Wildcard matchers (`*`, `?`) are always valid.
 */
const printable = (text: string) => text.replace(/\p{Cc}/gu, '?');

/** `body.permissions.<i>[.conditions.<j>].<field>: Must be a valid regular expression …` for every bad matcher. */
export function rolePatternIssues(request: Pick<RoleRequest, 'permissions'>): string[] {
  const lines: string[] = [];
  const check = (path: string, pattern: string, isRegex: boolean) => {
    const problem = checkPattern(pattern, isRegex);
    // The compiler's detail quotes the pattern: a control character in it must not split the line.
    if (problem !== undefined) lines.push(`${path}: ${printable(problem)}`);
  };
  request.permissions.forEach((permission, i) => {
    check(`body.permissions.${i}.actions_matching`, permission.actions_matching, permission.is_regex);
    (permission.conditions ?? []).forEach((condition, j) => {
      for (const field of ['names_matching', 'keys_matching', 'values_matching'] as const) {
        const matcher = condition[field];
        if (matcher !== undefined) check(`body.permissions.${i}.conditions.${j}.${field}`, matcher, condition.is_regex);
      }
    });
  });
  return lines;
}
