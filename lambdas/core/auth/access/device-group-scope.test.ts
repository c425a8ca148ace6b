import { describe, expect, it } from 'vitest';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { deviceLogToItem } from '#core/store/entities/device-log.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { deviceGroupsOf, inDeviceScope } from './device-group-scope.ts';
import { groupScope } from './group-scope.ts';

const client = 'demo';
const role = (permissions: unknown[]): Role =>
  ({ role_reference: 'r', permissions, payload_types: [], cidr_ranges: [], is_system: false }) as unknown as Role;
const context = (roles: Role[]) => createAccessContext({ roles, ip: '127.0.0.1', isClientApp: false });

const device = (reference: string, group?: string): TableItem =>
  ({ ...keys.device.item(client, reference, undefined, group), client, device_reference: reference, ...(group === undefined ? {} : { group }) }) as TableItem;

/** A log line of `deviceReference`, keeping `group` as the group its device had when it was written. */
const line = (id: string, deviceReference: string, group?: string): TableItem =>
  deviceLogToItem(client, {
    client,
    log_id: id,
    device_reference: deviceReference,
    ...(group === undefined ? {} : { group }),
    log_level: 'INFO',
    log_datetime: '2026-01-01T00:00:00.000Z',
    log_message: id,
  });

function world() {
  const store = createMemoryTable([
    { ...keys.group.item(client, 'london-equities'), group_reference: 'london-equities', tags: [{ tag_key: 'desk', tag_value: 'equities' }] },
    { ...keys.group.item(client, 'compliance'), group_reference: 'compliance', tags: [{ tag_key: 'desk', tag_value: 'audit' }] },
    // Moved into compliance after it recorded in london-equities and before it had any group.
    device('moved', 'compliance'),
    device('london', 'london-equities'),
  ]);
  const deviceReads: number[] = [];
  const batchGet: typeof store.batchGet = (batch, options) => {
    if (batch.some((key) => key.sk === 'DEVICE')) deviceReads.push(batch.length);
    return store.batchGet(batch, options);
  };
  return { table: { ...store, batchGet }, deviceReads };
}

const records = [
  line('recorded-without-group', 'moved'),
  line('recorded-in-london', 'moved', 'london-equities'),
  line('london-line', 'london'),
  line('gone-device-line', 'gone', 'compliance'),
];
const idsOf = (items: readonly TableItem[]) => items.map((item) => item.log_id);

describe('group scope of records that take their group from their device', () => {
  it("judges each record by its device's group now, and a record whose device is gone by the group it kept", async () => {
    const { table } = world();
    expect(await deviceGroupsOf({ table }, client)(records)).toEqual(['compliance', 'compliance', 'london-equities', 'compliance']);
  });

  it.each([
    ['a deny by name', [{ actions_matching: '*' }, { actions_matching: '*', is_denied: true, conditions: [{ names_matching: 'compliance' }] }], ['london-line']],
    ['an excluding condition', [{ actions_matching: '*', conditions: [{ names_matching: 'compliance', is_denied: true }] }], ['london-line']],
    ['an allow by name', [{ actions_matching: '*', conditions: [{ names_matching: 'compliance' }] }], ['recorded-without-group', 'recorded-in-london', 'gone-device-line']],
    ['an allow by tag value', [{ actions_matching: '*', conditions: [{ keys_matching: 'desk', values_matching: 'equities' }] }], ['london-line']],
    ['a deny by tag key', [{ actions_matching: '*' }, { actions_matching: '*', is_denied: true, conditions: [{ keys_matching: 'desk' }] }], []],
  ])('keeps exactly the records a role with %s sees', async (_kind, permissions, expected) => {
    const { table } = world();
    const scope = groupScope({ table }, client, context([role(permissions)]), 'deviceLogs:List');
    const keep = inDeviceScope({ table }, client, scope);
    expect(keep).toBeDefined();
    expect(idsOf(await keep!(records))).toEqual(expected);
  });

  it("names records by their device's group now in a group filter, reading each device once per request", async () => {
    const { table, deviceReads } = world();
    const everything = groupScope({ table }, client, context([role([{ actions_matching: '*' }])]), 'deviceLogs:List');
    const keep = inDeviceScope({ table }, client, everything, { group: 'compliance' });
    expect(idsOf(await keep!(records))).toEqual(['recorded-without-group', 'recorded-in-london', 'gone-device-line']);
    expect(idsOf(await keep!(records))).toHaveLength(3);
    expect(deviceReads).toEqual([3]);
  });

  it('reads no device for a caller every group is open to, without a group filter', async () => {
    const { table, deviceReads } = world();
    const everything = groupScope({ table }, client, context([role([{ actions_matching: '*' }])]), 'deviceLogs:List');
    const keep = inDeviceScope({ table }, client, everything, { keep: (item) => item.log_id !== 'london-line' });
    expect(idsOf(await keep!(records))).toEqual(['recorded-without-group', 'recorded-in-london', 'gone-device-line']);
    expect(inDeviceScope({ table }, client, everything)).toBeUndefined();
    expect(deviceReads).toEqual([]);
  });
});
