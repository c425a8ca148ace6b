import { describe, expect, it } from 'vitest';
import type { RoleRequest } from '#shared/contract/entities/roles.ts';
import { deletionWidening, roleWidening } from './role-widening.ts';

const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
const role = (permissions: RoleRequest['permissions'], more: Partial<RoleRequest> = {}): RoleRequest & { role_reference: string } => ({
  role_reference: 'ops',
  permissions,
  payload_types: ['SMS'],
  cidr_ranges: [],
  alert_permissions: NO_ALERTS,
  is_alertable: false,
  ...more,
});
const allow = (actions: string) => ({ actions_matching: actions, is_denied: false, is_regex: false });
const deny = (actions: string) => ({ actions_matching: actions, is_denied: true, is_regex: false });

describe('does a role change grant more than before', () => {
  it('a new role grants what it allows; the same role again grants no more, nor does a narrower one', () => {
    expect(roleWidening(undefined, role([allow('devices:List')]))).toEqual(['It allows devices:List beyond what it allowed before.', 'It opens payload types: SMS.']);
    expect(roleWidening(role([allow('devices:*')]), role([allow('devices:*')]))).toEqual([]);
    expect(roleWidening(role([allow('devices:*')]), role([allow('devices:List')]))).toEqual([]);
  });

  it('more actions, payload types, alert permissions or addresses grant more', () => {
    const before = role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/8'] });
    expect(roleWidening(before, role([allow('devices:List'), allow('apps:Create')], { cidr_ranges: ['10.0.0.0/8'] }))).toEqual([
      'It allows apps:Create beyond what it allowed before.',
    ]);
    expect(roleWidening(before, role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/8'], payload_types: ['SMS', 'Call'] }))).toEqual([
      'It opens payload types: Call.',
    ]);
    expect(roleWidening(before, role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/8'], alert_permissions: { ...NO_ALERTS, sec_read: true } }))).toEqual([
      'It gives alert permissions: sec_read.',
    ]);
    expect(roleWidening(before, role([allow('devices:List')]))).toContain('It applies from addresses it did not before (CIDR ranges).');
  });

  it('a dropped deny grants more, even on a role that allows nothing itself', () => {
    expect(roleWidening(role([allow('payloads:*'), deny('payloads:Download')]), role([allow('payloads:*')]))).toContain(
      'It no longer denies actions matching "payloads:Download".',
    );
    expect(roleWidening(role([deny('payloads:Download')]), role([deny('payloads:Play')]))).toEqual(['It no longer denies actions matching "payloads:Download".']);
    expect(deletionWidening(role([allow('devices:List'), deny('payloads:Download')]))).toEqual([
      'Its deny of actions matching "payloads:Download" no longer binds its holders.',
    ]);
    expect(deletionWidening(role([allow('devices:List')]))).toEqual([]);
  });
});
