import { describe, expect, it } from 'vitest';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { ForbiddenError } from '../../errors.ts';
import { createAccessContext } from './create-access-context.ts';
import { authorize } from './resolve-access.ts';

/** A role that allows everything: what support mode refuses, it refuses whatever the granted role allows. */
const everything = {
  client: 'demo',
  role_reference: 'admin',
  permissions: [{ actions_matching: '*', is_denied: false, is_regex: false }],
  payload_types: [],
  cidr_ranges: [],
  alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
  is_alertable: false,
} as unknown as Role;

const endpoint = (action: string) => ({ surface: 'admin', action }) as Endpoint;
const access = (supportReference?: string) =>
  createAccessContext({ roles: [everything], ip: '192.0.2.7', isClientApp: false, ...(supportReference ? { supportReference } : {}) });
const refusal = (action: string, supportReference?: string) => {
  try {
    authorize({ access: access(supportReference), limits: [] }, endpoint(action));
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('support mode refusals in the request pipeline', () => {
  it('refuses creating or changing client apps, transfer configurations and roles to staff in support mode, with one line', () => {
    for (const action of ['apps:Create', 'apps:Update', 'transferConfigs:Create', 'transferConfigs:Update', 'roles:Update', 'roles:Delete', 'account:UpdateDefaults']) {
      const error = refusal(action, '01SUPPORTREQUEST0000000000');
      expect(error, action).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).message, action).toMatch(/^Support mode cannot .+; ask the tenant's administrator$/);
    }
  });

  it('leaves the same acts to a tenant user holding the same role, and other acts to support mode', () => {
    for (const action of ['apps:Create', 'transferConfigs:Update', 'roles:Update']) expect(refusal(action), action).toBeUndefined();
    for (const action of ['apps:Delete', 'transfers:Run', 'transferConfigs:Delete', 'payloads:List']) {
      expect(refusal(action, '01SUPPORTREQUEST0000000000'), action).toBeUndefined();
    }
  });

  it('neither allows nor offers the refused acts in the access context of support mode (the profile the portal reads)', () => {
    const support = access('01SUPPORTREQUEST0000000000');
    expect(support.can('apps:Create')).toBe(false);
    expect(support.can('apps:Delete')).toBe(true);
    expect(support.allowedActions()).not.toContain('transferConfigs:Create');
    expect(support.allowedActions()).toContain('transfers:Run');
    expect(access().allowedActions()).toContain('transferConfigs:Create');
  });
});
