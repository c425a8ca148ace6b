import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { RoleRequest, type Role } from '#shared/contract/entities/roles.ts';
import { RoleReference } from '#shared/contract/fields.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { checkPattern } from '#shared/permissions/matchers.ts';
import type { z } from 'zod';
import { conditionDraftOf, conditionOf, type ConditionDraft } from '../../components/access/condition-draft.ts';

/**
 * The role editor's model. The contract's Permission holds ONE action matcher; the editor lets a rule name several
 * actions with the same effect and conditions, and saves it as one permission per action (same is_denied, is_regex
 * and conditions). Reading a role back, consecutive permissions that differ only in their action join into one rule.
 */

/** One action entry of the catalogue (shared/contract/registry.ts ACTION_CATALOGUE). */
export interface CatalogueEntry {
  action: string;
  description: string;
}

export interface RuleDraft {
  effect: 'allow' | 'deny';
  /** Action names from the catalogue, or wildcard patterns (`devices:*`), or regexes when `isRegex`. */
  actions: string[];
  isRegex: boolean;
  conditions: ConditionDraft[];
}

export interface RoleDraft {
  reference: string;
  description: string;
  rules: RuleDraft[];
  payloadTypes: PayloadType[];
  cidrRanges: string[];
  alertPermissions: AlertPermissions;
  isAlertable: boolean;
}

export const EMPTY_RULE: RuleDraft = { effect: 'allow', actions: [], isRegex: false, conditions: [] };

export const EMPTY_ROLE: RoleDraft = {
  reference: '',
  description: '',
  rules: [EMPTY_RULE],
  payloadTypes: [...PAYLOAD_TYPES],
  cidrRanges: [],
  alertPermissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
  isAlertable: false,
};

type PermissionInput = z.input<typeof RoleRequest>['permissions'][number];

/** The permissions one rule stands for: one per action (a rule without actions gives one with an empty matcher). */
export function permissionsOfRule(rule: RuleDraft): PermissionInput[] {
  const conditions = rule.conditions.map(conditionOf);
  const actions = rule.actions.length === 0 ? [''] : rule.actions;
  return actions.map((action) => ({
    actions_matching: action,
    is_denied: rule.effect === 'deny',
    is_regex: rule.isRegex,
    ...(conditions.length === 0 ? {} : { conditions }),
  }));
}

/** A stored role as the editor shows it; consecutive permissions alike but for the action join into one rule. */
export function draftOfRole(role: Role): RoleDraft {
  const rules: RuleDraft[] = [];
  let lastShape = '';
  for (const permission of role.permissions) {
    const raw = permission as Record<string, unknown>;
    const rule: RuleDraft = {
      effect: raw.is_denied === true ? 'deny' : 'allow',
      actions: [permission.actions_matching],
      isRegex: raw.is_regex === true,
      conditions: Array.isArray(raw.conditions) ? raw.conditions.map(conditionDraftOf) : [],
    };
    const shape = JSON.stringify([rule.effect, rule.isRegex, rule.conditions]);
    const previous = rules[rules.length - 1];
    if (previous !== undefined && shape === lastShape && !previous.actions.includes(permission.actions_matching)) {
      previous.actions.push(permission.actions_matching);
    } else {
      rules.push(rule);
    }
    lastShape = shape;
  }
  return {
    reference: role.role_reference,
    description: role.description ?? '',
    rules: rules.length === 0 ? [EMPTY_RULE] : rules,
    payloadTypes: [...role.payload_types],
    cidrRanges: [...role.cidr_ranges],
    alertPermissions: { ...role.alert_permissions },
    isAlertable: role.is_alertable,
  };
}

export interface RoleCheck {
  /** The request body, when every check passes. */
  body?: z.input<typeof RoleRequest>;
  /** Lines not tied to one rule (reference, payload types, CIDR ranges, the permission count...). */
  lines: string[];
  /** Lines per rule (index of `draft.rules`), paths as the server gives them (`body.permissions.<i>...`). */
  ruleLines: string[][];
}

/**
 * Live validation: the role request through the contract's RoleRequest schema plus the matcher check the server
 * runs (checkPattern: length, RE2 regex syntax), each problem as `path: message`. Permission paths are the saved
 * permission's index; each line is also filed under the rule it comes from.
 */
export function checkRole(draft: RoleDraft, options: { checkReference: boolean }): RoleCheck {
  const lines: string[] = [];
  const ruleLines: string[][] = draft.rules.map(() => []);
  if (options.checkReference) {
    const reference = RoleReference.safeParse(draft.reference.trim());
    if (!reference.success) lines.push(...formatIssues(reference.error, 'params.role_reference'));
  }
  const owner: number[] = [];
  const permissions = draft.rules.flatMap((rule, ruleIndex) => {
    const list = permissionsOfRule(rule);
    list.forEach(() => owner.push(ruleIndex));
    return list;
  });
  const body: z.input<typeof RoleRequest> = {
    permissions,
    payload_types: draft.payloadTypes,
    cidr_ranges: draft.cidrRanges,
    alert_permissions: draft.alertPermissions,
    is_alertable: draft.isAlertable,
    ...(draft.description.trim() === '' ? {} : { description: draft.description.trim() }),
  };
  const bodyLines: string[] = [];
  const parsed = RoleRequest.safeParse(body);
  if (!parsed.success) bodyLines.push(...formatIssues(parsed.error, 'body'));
  permissions.forEach((permission, i) => {
    const problem = permission.actions_matching === '' ? undefined : checkPattern(permission.actions_matching, permission.is_regex === true);
    if (problem !== undefined) bodyLines.push(`body.permissions.${i}.actions_matching: ${problem}`);
    (permission.conditions ?? []).forEach((condition, c) => {
      for (const field of ['names_matching', 'keys_matching', 'values_matching'] as const) {
        const pattern = condition[field];
        const issue = pattern === undefined ? undefined : checkPattern(pattern, condition.is_regex === true);
        if (issue !== undefined) bodyLines.push(`body.permissions.${i}.conditions.${c}.${field}: ${issue}`);
      }
    });
  });
  for (const line of new Set(bodyLines)) {
    const match = /^body\.permissions\.(\d+)[.:]/.exec(line);
    const ruleIndex = match === null ? undefined : owner[Number(match[1])];
    if (ruleIndex === undefined) lines.push(line);
    // A rule without actions already says so (below); the empty matcher standing in for it adds nothing.
    else if (!(draft.rules[ruleIndex]?.actions.length === 0 && line.includes('.actions_matching: '))) ruleLines[ruleIndex]?.push(line);
  }
  draft.rules.forEach((rule, i) => {
    if (rule.actions.length === 0) ruleLines[i]?.unshift(`rules.${i + 1}.actions: Pick at least one action`);
  });
  const ok = lines.length === 0 && ruleLines.every((list) => list.length === 0);
  return ok ? { body, lines, ruleLines } : { lines, ruleLines };
}

/** Catalogue actions a matcher covers (for the rule's explanation and the picker's hints). */
export function isPattern(action: string, isRegex: boolean): boolean {
  return isRegex || /[*?]/.test(action);
}
