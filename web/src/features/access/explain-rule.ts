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
export function roleSummary(rules: readonly RuleDraft[], catalogue: readonly CatalogueEntry[]): RoleSummary {
  const permissions = rules.flatMap(permissionsOfRule).filter((permission) => permission.actions_matching !== '');
  const allowed = allowedActions([{ role_reference: 'draft', permissions }], catalogue);
  return { allowed, total: catalogue.length, denials: denialsOf(rules, catalogue) };
}

/** How a deny rule changes an action some allow rule grants. */
export interface Denial {
  action: string;
  /** `narrowed`: still allowed on the groups the deny's conditions leave out; `removed`: denied everywhere. */
  effect: 'narrowed' | 'removed';
  /** The deny rules (1-based, as the editor numbers them) that take the action away. */
  rules: number[];
}

export interface RoleSummary {
  allowed: string[];
  total: number;
  /** The allowed-by-some-rule actions a deny rule narrows or removes, in catalogue order. */
  denials: Denial[];
}

/**
 * Where a deny takes something away from an allow: an action that an allow rule covers and a deny rule also covers.
 * An unconditional deny removes it everywhere (deny beats allow); a deny with conditions narrows it to the groups
 * the conditions do not match.
 */
export function denialsOf(rules: readonly RuleDraft[], catalogue: readonly CatalogueEntry[]): Denial[] {
  const granted = new Set(rules.filter((rule) => rule.effect === 'allow').flatMap((rule) => actionsCovered(rule, catalogue)));
  const denials: Denial[] = [];
  for (const { action } of catalogue) {
    if (!granted.has(action)) continue;
    const denying = rules.flatMap((rule, index) => (rule.effect === 'deny' && actionsCovered(rule, catalogue).includes(action) ? [index] : []));
    if (denying.length === 0) continue;
    const removed = denying.some((index) => rules[index]?.conditions.length === 0);
    denials.push({ action, effect: removed ? 'removed' : 'narrowed', rules: denying.map((index) => index + 1) });
  }
  return denials;
}
