import { describe, expect, it } from 'vitest';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { ForbiddenError } from '#core/errors.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { keys } from '#core/store/keys.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { payloadAccess } from './payload-access.ts';

const client = 'demo';
const role = (permissions: Role['permissions'], payload_types: Role['payload_types']): Role =>
  ({ role_reference: 'r', permissions, payload_types, cidr_ranges: [], is_system: false }) as unknown as Role;
const context = (roles: Role[]) => createAccessContext({ roles, ip: '127.0.0.1', isClientApp: false });

const table = createMemoryTable([
  { ...keys.group.item(client, 'sales'), group_reference: 'sales', tags: [{ tag_key: 'region', tag_value: 'eu' }] },
  { ...keys.group.item(client, 'ops'), group_reference: 'ops', tags: [] },
]);

describe('payloadAccess', () => {
  it('refuses a type the roles do not open before looking at the group', async () => {
    const access = payloadAccess({ table }, client, context([role([{ actions_matching: '*' }] as never, ['Call'])]), 'payloads:Read');
    expect(access.allGroups).toBe(true);
    expect(await access.check({ payload_type: 'SMS', group: 'sales' })).toBe('TypeNotAuthorised');
    expect(await access.check({ payload_type: 'Call', group: 'sales' })).toBeUndefined();
    expect(await access.check({ payload_type: 42, group: 'sales' })).toBe('TypeNotAuthorised');
  });

  it('narrows to the groups a condition includes, by tag, and judges a missing group as empty', async () => {
    const conditional = role(
      [{ actions_matching: 'payloads:*', conditions: [{ keys_matching: 'region', values_matching: 'eu', is_denied: false, is_regex: false }] }] as never,
      ['Call', 'SMS'],
    );
    const access = payloadAccess({ table }, client, context([conditional]), 'payloads:List');
    expect(access.allGroups).toBe(false);
    expect(await access.check({ payload_type: 'Call', group: 'ops' })).toBe('GroupNotAuthorised');
    expect(await access.check({ payload_type: 'Call' })).toBe('GroupNotAuthorised');
    expect(await access.check({ payload_type: 'Call', group: 'gone' })).toBe('GroupNotAuthorised');
    const items = [
      { payload_type: 'Call', group: 'sales', n: 1 },
      { payload_type: 'Photo', group: 'sales', n: 2 },
      { payload_type: 'SMS', group: 'ops', n: 3 },
      { payload_type: 'SMS', group: 'sales', n: 4 },
    ];
    expect((await access.filter(items)).map((item) => item.n)).toEqual([1, 4]);
  });

  it('an excluding condition hides that group only', async () => {
    const excluding = role(
      [{ actions_matching: '*', conditions: [{ names_matching: 'ops', is_denied: true, is_regex: false }] }] as never,
      ['Call'],
    );
    const access = payloadAccess({ table }, client, context([excluding]), 'payloads:List');
    const items = [{ payload_type: 'Call', group: 'ops' }, { payload_type: 'Call', group: 'sales' }, { payload_type: 'Call' }];
    expect(await access.filter(items)).toEqual([{ payload_type: 'Call', group: 'sales' }, { payload_type: 'Call' }]);
  });

  it('fails closed without an access context', () => {
    expect(() => payloadAccess({ table }, client, undefined, 'payloads:List')).toThrow(ForbiddenError);
  });
});
