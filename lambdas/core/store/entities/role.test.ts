import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readRole, roleToItem, toRole, type RoleItem } from './role.ts';

const role: RoleItem = {
  client: 'acme',
  role_reference: 'reviewer',
  permissions: [{ actions_matching: 'payloads:*' }],
  payload_types: ['Call'],
  cidr_ranges: ['10.0.0.0/8'],
  alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
  is_alertable: false,
  description: 'Reads recordings',
  is_system: false,
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('role item', () => {
  it('round-trips: the item carries the role keys, reads back as the role, and answers the contract shape', () => {
    const item = roleToItem('acme', role);
    expect(item).toMatchObject(keys.role.item('acme', 'reviewer'));
    expect(toRole(readRole(item))).toEqual(role);
  });

  it('fills what roles written before newer attributes lack', () => {
    const { cidr_ranges: _c, is_alertable: _a, is_system: _s, ...old } = role;
    expect(readRole({ ...keys.role.item('acme', 'reviewer'), ...old })).toMatchObject({ cidr_ranges: [], is_alertable: false, is_system: false });
  });

  it('refuses a malformed item with an InternalError naming the entity and the path', () => {
    const item = { ...roleToItem('acme', role), permissions: [{ actions_matching: 7 }] };
    expect(() => readRole(item)).toThrow(InternalError);
    expect(() => readRole(item)).toThrow(/Role item .* permissions\.0\.actions_matching: /);
  });
});
