import { describe, expect, it } from 'vitest';
import type { Role } from '#shared/contract/entities/roles.ts';
import { actionsCovered, explainRule, roleSummary } from './explain-rule.ts';
import { checkRole, draftOfRole, EMPTY_ROLE, permissionsOfRule, type RuleDraft } from './role-model.ts';

const catalogue = [
  { action: 'devices:Deactivate', description: 'Deactivate devices.' },
  { action: 'devices:List', description: 'List devices.' },
  { action: 'devices:Read', description: 'Read a device.' },
  { action: 'payloads:Download', description: 'Download payloads.' },
];

const salesRule: RuleDraft = {
  effect: 'allow',
  actions: ['devices:List', 'devices:Read'],
  isRegex: false,
  conditions: [{ mode: 'include', names: 'sales-*', keys: '', values: '', isRegex: false }],
};
const denyRule: RuleDraft = { effect: 'deny', actions: ['payloads:Download'], isRegex: false, conditions: [] };

describe('rules and permissions', () => {
  it('saves a rule as one permission per action', () => {
    expect(permissionsOfRule(salesRule)).toEqual([
      { actions_matching: 'devices:List', is_denied: false, is_regex: false, conditions: [{ names_matching: 'sales-*', is_denied: false, is_regex: false }] },
      { actions_matching: 'devices:Read', is_denied: false, is_regex: false, conditions: [{ names_matching: 'sales-*', is_denied: false, is_regex: false }] },
    ]);
  });

  it('reads consecutive alike permissions back as one rule', () => {
    const role = {
      role_reference: 'sales',
      permissions: [...permissionsOfRule(salesRule), ...permissionsOfRule(denyRule)],
      payload_types: ['Call'],
      cidr_ranges: [],
      alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
      is_alertable: false,
      is_system: false,
    } as Role;
    const draft = draftOfRole(role);
    expect(draft.rules).toEqual([salesRule, denyRule]);
    expect(draft.payloadTypes).toEqual(['Call']);
  });
});

describe('checkRole', () => {
  it('passes a valid role and gives the request body', () => {
    const result = checkRole({ ...EMPTY_ROLE, reference: 'sales', rules: [salesRule, denyRule] }, { checkReference: true });
    expect(result.lines).toEqual([]);
    expect(result.body?.permissions).toHaveLength(3);
  });

  it('files problems under their rule, with the server paths', () => {
    const badRegex: RuleDraft = { effect: 'allow', actions: ['(a'], isRegex: true, conditions: [] };
    const emptyCondition: RuleDraft = { ...salesRule, conditions: [{ mode: 'include', names: '', keys: '', values: '', isRegex: false }] };
    const result = checkRole(
      { ...EMPTY_ROLE, reference: 'x', rules: [badRegex, emptyCondition, { ...denyRule, actions: [] }], cidrRanges: ['10.0.0.0/99'] },
      { checkReference: true },
    );
    expect(result.body).toBeUndefined();
    expect(result.lines).toContain('params.role_reference: Must be between 3 and 35 characters');
    expect(result.lines).toContain('body.cidr_ranges.0: Must be a valid CIDR range');
    expect(result.ruleLines[0]?.[0]).toMatch(/^body\.permissions\.0\.actions_matching: Must be a valid regular expression/);
    expect(result.ruleLines[1]).toContain('body.permissions.1.conditions.0: A condition needs at least 1 property');
    expect(result.ruleLines[2]?.[0]).toBe('rules.3.actions: Pick at least one action');
  });
});

describe('explanations', () => {
  it('says what a rule grants, in plain English', () => {
    expect(explainRule(salesRule)).toBe('Allows devices:List, devices:Read on groups whose name is like "sales-*".');
    expect(explainRule(denyRule)).toBe('Denies payloads:Download, everywhere.');
    expect(explainRule({ ...denyRule, actions: ['devices:*'], conditions: [{ mode: 'exclude', names: 'vip', keys: '', values: '', isRegex: false }] })).toBe(
      'Denies actions matching "devices:*" on every group, except groups whose name is like "vip".',
    );
    expect(explainRule({ ...denyRule, actions: [] })).toMatch(/^Pick at least one action/);
  });

  it('lists the catalogue actions a rule covers, and what the role allows (deny beats allow)', () => {
    expect(actionsCovered({ ...salesRule, actions: ['devices:*'] }, catalogue)).toEqual(['devices:Deactivate', 'devices:List', 'devices:Read']);
    const summary = roleSummary([{ ...denyRule, effect: 'allow', actions: ['*'] }, { ...denyRule, actions: ['devices:Deactivate'] }], catalogue);
    expect(summary).toEqual({
      allowed: ['devices:List', 'devices:Read', 'payloads:Download'],
      total: 4,
      denials: [{ action: 'devices:Deactivate', effect: 'removed', rules: [2] }],
    });
  });

  it('shows where a deny with conditions narrows an allowed action to fewer groups', () => {
    const narrowing = { ...denyRule, actions: ['devices:Read'], conditions: [{ mode: 'include' as const, names: 'vip', keys: '', values: '', isRegex: false }] };
    const summary = roleSummary([{ ...salesRule, conditions: [] }, narrowing], catalogue);
    expect(summary.allowed).toContain('devices:Read');
    expect(summary.denials).toEqual([{ action: 'devices:Read', effect: 'narrowed', rules: [2] }]);
  });
});
