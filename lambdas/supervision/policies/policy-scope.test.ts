import { describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { policyCovers, scopePatternIssues } from './policy-scope.ts';

const scope = (fields: Partial<Parameters<typeof policyCovers>[0]['scope']>) => ({
  scope: { group_conditions: [], device_user_references: [], payload_types: [...PAYLOAD_TYPES], ...fields },
});
const recording = (group: string, tags: { tag_key: string; tag_value: string }[] = [], deviceUser = 'du-1') => ({
  payload_type: 'SMS' as const,
  device_user_reference: deviceUser,
  group: { name: group, tags },
});

describe('a policy\'s scope', () => {
  it('covers everyone of its types when it names neither groups nor people', () => {
    expect(policyCovers(scope({}), recording(''))).toBe(true);
    expect(policyCovers(scope({ payload_types: ['Call'] }), recording('north'))).toBe(false);
  });

  it('reads group conditions as a role\'s: names and tags, an excluding condition wins, a group-less recording is not in a named group', () => {
    const desk = scope({ group_conditions: [{ keys_matching: 'desk', values_matching: 'fx', is_denied: false, is_regex: false }] });
    expect(policyCovers(desk, recording('north', [{ tag_key: 'desk', tag_value: 'fx' }]))).toBe(true);
    expect(policyCovers(desk, recording('north', [{ tag_key: 'desk', tag_value: 'rates' }]))).toBe(false);
    const allButLondon = scope({ group_conditions: [{ names_matching: 'london*', is_denied: true, is_regex: false }] });
    expect(policyCovers(allButLondon, recording('london-1'))).toBe(false);
    expect(policyCovers(allButLondon, recording('paris'))).toBe(true);
    const regex = scope({ group_conditions: [{ names_matching: '^(north|south)$', is_denied: false, is_regex: true }] });
    expect(policyCovers(regex, recording('south'))).toBe(true);
    expect(policyCovers(regex, recording('southeast'))).toBe(false);
    expect(policyCovers(regex, recording(''))).toBe(false);
  });

  it('covers a named person whatever their group, beside the groups the conditions admit', () => {
    const both = scope({ group_conditions: [{ names_matching: 'north', is_denied: false, is_regex: false }], device_user_references: ['du-9'] });
    expect(policyCovers(both, recording('south', [], 'du-9'))).toBe(true);
    expect(policyCovers(both, recording('north', [], 'du-1'))).toBe(true);
    expect(policyCovers(both, recording('south', [], 'du-1'))).toBe(false);
    expect(policyCovers(scope({ device_user_references: ['du-9'] }), recording('north', [], 'du-1'))).toBe(false);
  });

  it('names each group matcher the evaluator could not read, with its path', () => {
    const issues = scopePatternIssues({
      group_conditions: [
        { names_matching: 'ok*', is_denied: false, is_regex: false },
        { names_matching: '(a', keys_matching: '(?<=x)y', is_denied: false, is_regex: true },
      ],
      device_user_references: [],
      payload_types: ['SMS'],
    });
    expect(issues.length).toBe(2);
    expect(issues[0]).toMatch(/^body\.scope\.group_conditions\.1\.names_matching: /);
    expect(issues[1]).toMatch(/^body\.scope\.group_conditions\.1\.keys_matching: /);
  });
});
