import { describe, expect, it } from 'vitest';
import type { AccessContext } from '#core/auth/access/access-context.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { keys } from '#core/store/keys.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { profileOf } from './profile.ts';

const principal: UserPrincipal = {
  kind: 'user',
  subject: 'demo-admin',
  email: 'admin@demo.test',
  client: 'demo',
  groups: ['admin'],
  tokenIssuer: 'http://localhost:1/oidc',
};

/** Only what a profile reads; cast because the interface grows with the authz work (the profile ignores the rest). */
const access = (overrides: Partial<AccessContext> = {}): AccessContext =>
  ({
    roles: [],
    roleReferences: ['admin'],
    payloadTypes: ['Call', 'BlockedCall'],
    isClientApp: false,
    can: () => true,
    allowedActions: () => ['devices:List', 'roles:Update'],
    ...overrides,
  }) as AccessContext;

/** The caller of `GET profile` in `client`, as the route builds it. */
const caller = (deps: { table: ReturnType<typeof createMemoryTable> }, user: UserPrincipal, client: string, rights: AccessContext) =>
  tenantCaller(deps, client, rights, { action: 'profile:Read', principal: user });

describe('profileOf', () => {
  it('combines the token, the access context and the stored portal user', async () => {
    const table = createMemoryTable([
      {
        ...keys.portalUser.item('demo', 'demo-admin'),
        user_group: 'north',
        portal_config: { theme: 'dark' },
      },
    ]);
    expect(await profileOf(caller({ table }, principal, 'demo', access()))).toEqual({
      user_reference: 'demo-admin',
      client: 'demo',
      actions: ['devices:List', 'roles:Update'],
      groups: ['admin'],
      payload_types: ['Call', 'BlockedCall'],
      roles: ['admin'],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      user_group: 'north',
      portal_config: { theme: 'dark' },
    });
  });

  it('prefers the access context user group and tolerates a missing or odd portal user item', async () => {
    const table = createMemoryTable([
      {
        ...keys.portalUser.item('demo', 'demo-admin'),
        user_group: 5,
        portal_config: ['x'],
      },
    ]);
    const profile = await profileOf(caller({ table }, principal, 'demo', access({ userGroup: '*', roleReferences: ['reviewer'] })));
    expect(profile).toMatchObject({ user_group: '*', roles: ['reviewer'] });
    expect(profile).not.toHaveProperty('portal_config');
    const bare = await profileOf(caller({ table: createMemoryTable() }, principal, 'demo', access()));
    expect(bare).not.toHaveProperty('user_group');
  });

  it('carries the alert permissions of the roles that apply from the caller address', async () => {
    const role = (reference: string, alert_permissions: object, cidr_ranges: string[] = []) =>
      ({ role_reference: reference, permissions: [], alert_permissions, cidr_ranges }) as unknown as AccessContext['roles'][number];
    const roles = [
      role('ops', { ops_read: true, ops_write: true, sec_read: false, sec_write: false }),
      role('sec-office', { ops_read: false, ops_write: false, sec_read: true, sec_write: true }, ['10.0.0.0/8']),
    ];
    const outside = await profileOf(caller({ table: createMemoryTable() }, principal, 'demo', access({ roles, ip: '192.168.1.2' })));
    expect(outside.alert_permissions).toEqual({ ops_read: true, ops_write: true, sec_read: false, sec_write: false });
    const inside = await profileOf(caller({ table: createMemoryTable() }, principal, 'demo', access({ roles, ip: '10.1.2.3' })));
    expect(inside.alert_permissions).toEqual({ ops_read: true, ops_write: true, sec_read: true, sec_write: true });
  });
});
