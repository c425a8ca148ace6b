import { describe, expect, it } from 'vitest';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { keys } from '#core/store/keys.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { groupScope } from './group-scope.ts';

const client = 'demo';
const role = (permissions: unknown[]): Role =>
  ({ role_reference: 'r', permissions, payload_types: [], cidr_ranges: [], is_system: false }) as unknown as Role;
const context = (roles: Role[]) => createAccessContext({ roles, ip: '127.0.0.1', isClientApp: false });
const londonOnly = role([{ actions_matching: '*', conditions: [{ names_matching: 'london-*' }] }]);

function table() {
  const store = createMemoryTable([
    { ...keys.group.item(client, 'london-equities'), group_reference: 'london-equities', tags: [] },
    { ...keys.group.item(client, 'compliance'), group_reference: 'compliance', tags: [{ tag_key: 'desk', tag_value: 'audit' }] },
  ]);
  let batches = 0;
  const batchGet: typeof store.batchGet = (...args) => {
    batches += 1;
    return store.batchGet(...args);
  };
  return { table: { ...store, batchGet }, batches: () => batches };
}

const notFound = () => new NotFoundError('Device not found');

describe('groupScope', () => {
  it('is unrestricted for a role without conditions, and reads no group then', async () => {
    const { table: store, batches } = table();
    const scope = groupScope({ table: store }, client, context([role([{ actions_matching: '*' }])]), 'devices:List');
    expect(scope.unrestricted).toBe(true);
    expect(await scope.filter([{ group: 'compliance' }, {}])).toEqual([{ group: 'compliance' }, {}]);
    expect(batches()).toBe(0);
  });

  it('keeps the items of the groups a condition allows, reading each group once per request', async () => {
    const { table: store, batches } = table();
    const scope = groupScope({ table: store }, client, context([londonOnly]), 'devices:List');
    expect(scope.unrestricted).toBe(false);
    const items = [{ group: 'london-equities', n: 1 }, { group: 'compliance', n: 2 }, { n: 3 }, { group: 'london-gone', n: 4 }];
    expect((await scope.filter(items)).map((item) => item.n)).toEqual([1, 4]);
    expect(await scope.allows('compliance')).toBe(false);
    expect(await scope.allows(undefined)).toBe(false);
    expect(batches()).toBe(1);
    expect([...(await scope.visibleOf(['london-equities', 'compliance']))]).toEqual(['london-equities']);
  });

  it('answers a refused single object exactly as a missing one', async () => {
    const scope = groupScope({ table: table().table }, client, context([londonOnly]), 'devices:Read');
    const refused = await scope.visible({ group: 'compliance' }, notFound).catch((error: unknown) => error);
    const missing = await scope.visible(undefined, notFound).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotFoundError);
    expect(refused).toEqual(missing);
    expect(await scope.visible({ group: 'london-equities', id: 'x' }, notFound)).toEqual({ group: 'london-equities', id: 'x' });
  });

  it('refuses a named target group with a 403 naming it, and fails closed without access', async () => {
    const scope = groupScope({ table: table().table }, client, context([londonOnly]), 'deviceUsers:Update');
    await expect(scope.require('compliance')).rejects.toThrow(new ForbiddenError('Access denied: your roles do not allow changing device users (deviceUsers:Update) on group "compliance"'));
    await expect(scope.require('london-equities')).resolves.toBeUndefined();
    expect(() => groupScope({ table: table().table }, client, undefined, 'devices:List')).toThrow(ForbiddenError);
  });

  it('judges tags: an excluding condition hides only the groups it matches', async () => {
    const notAudit = role([{ actions_matching: '*', conditions: [{ keys_matching: 'desk', values_matching: 'audit', is_denied: true }] }]);
    const scope = groupScope({ table: table().table }, client, context([notAudit]), 'gps:List');
    expect(scope.unrestricted).toBe(false);
    expect(await scope.filter([{ group: 'compliance' }, { group: 'london-equities' }, {}])).toEqual([{ group: 'london-equities' }, {}]);
  });
});
