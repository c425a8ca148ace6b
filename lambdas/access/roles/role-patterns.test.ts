import { describe, expect, it } from 'vitest';
import { RoleRequest } from '#shared/contract/entities/roles.ts';
import { rolePatternIssues } from './role-patterns.ts';

const request = (permissions: unknown[]) =>
  RoleRequest.parse({ permissions, alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false } });

describe('rolePatternIssues', () => {
  it('accepts wildcards (any text) and RE2 regexes', () => {
    expect(rolePatternIssues(request([{ actions_matching: '(((' }, { actions_matching: '^devices:(List|Read)$', is_regex: true }]))).toEqual([]);
  });

  it('names each regex that does not compile, including those in conditions', () => {
    const lines = rolePatternIssues(
      request([
        { actions_matching: '(a', is_regex: true },
        { actions_matching: '*', conditions: [{ names_matching: 'ok.*' }, { keys_matching: '(?=x)', values_matching: 'fine', is_regex: true }] },
      ]),
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^body\.permissions\.0\.actions_matching: Must be a valid regular expression/);
    expect(lines[1]).toMatch(/^body\.permissions\.1\.conditions\.1\.keys_matching: Must be a valid regular expression/);
  });

  it('refuses back-references (catastrophic patterns cannot be stored) and keeps lines whole', () => {
    const [line] = rolePatternIssues(request([{ actions_matching: '(a)\\1\n(', is_regex: true }]));
    expect(line).toMatch(/^body\.permissions\.0\.actions_matching: Must be a valid regular expression/);
    expect(line).not.toContain('\n');
  });
});
