import { allowedActions } from '#shared/permissions/evaluate.ts';
import { explainPermission } from '#shared/permissions/explain.ts';
import { matches } from '#shared/permissions/matchers.ts';
import { isPattern, permissionsOfRule, type CatalogueEntry, type RuleDraft } from './role-model.ts';

const PLACEHOLDER = '\u0000action\u0000';

/**
 * One plain-English sentence for a rule, e.g. `Allows devices:List, devices:Get on groups whose name is like
 * "sales-*".` The group scope is worded by shared/permissions (explainPermission), so the sentence follows the same
 * semantics as the evaluation; the actions are listed as the rule names them.
 */
export function explainRule(rule: RuleDraft): string {
  const actions = rule.actions.filter((action) => action !== '');
  if (actions.length === 0) return 'Pick at least one action to see what this rule grants.';
  const [first] = permissionsOfRule({ ...rule, actions: [PLACEHOLDER], isRegex: false });
  const whole = explainPermission(first as Parameters<typeof explainPermission>[0]);
  const verb = rule.effect === 'deny' ? 'Denies' : 'Allows';
  const head = `${verb} the action "${PLACEHOLDER}"`;
  const scope = whole.startsWith(head) ? whole.slice(head.length) : whole.slice(whole.indexOf(PLACEHOLDER) + PLACEHOLDER.length + 1);
  const named = actions.map((action) => {
    if (!isPattern(action, rule.isRegex)) return action;
    return rule.isRegex ? `actions matching /${action}/` : /^\*+$/.test(action) ? 'every action' : `actions matching "${action}"`;
  });
  return `${verb} ${named.join(', ')}${scope}`;
}

/** The catalogue actions a rule's matchers cover, in catalogue order. */
export function actionsCovered(rule: RuleDraft, catalogue: readonly CatalogueEntry[]): string[] {
  const patterns = rule.actions.filter((action) => action !== '');
  return catalogue
    .map((entry) => entry.action)
    .filter((action) => patterns.some((pattern) => matches(pattern, rule.isRegex, action)));
}

/**
 * What the whole role grants tenant-wide, evaluated with shared/permissions: the catalogue actions it allows
 * somewhere (deny beats allow; conditional rules count, since they allow on some groups).
 */
export function roleSummary(rules: readonly RuleDraft[], catalogue: readonly CatalogueEntry[]): { allowed: string[]; total: number } {
  const permissions = rules.flatMap(permissionsOfRule).filter((permission) => permission.actions_matching !== '');
  const allowed = allowedActions([{ role_reference: 'draft', permissions }], catalogue);
  return { allowed, total: catalogue.length };
}
