import { describe, expect, it } from 'vitest';
import { TABLE_KEYS } from './table-definition.ts';
import { ENTITY, keys, part, payloadObjectKey, tenantPrefix } from './keys.ts';

const KEY_ATTRIBUTES = [
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
];

describe('key builders', () => {
  const items = [
    keys.account.item('acme'),
    keys.portalUser.item('acme', 'user-1'),
    keys.termsAcceptance.item('acme', { reference: 'user-1', staff: false }, '2026-11-01T00:00:00.000Z'),
    keys.role.item('acme', 'Admins'),
    keys.group.item('acme', 'Sales'),
    keys.tagDefinition.item('acme', 'region'),
    keys.device.item('acme', 'dev-1', 'du-1', 'Sales'),
    keys.deviceUser.item('acme', 'du-1', 'Sales'),
    keys.payload.item('acme', { payloadReference: '01J0', payloadTime: '2025-01-02T03:04:05.000Z', deviceReference: 'dev-1', deviceUserReference: 'du-1' }),
    keys.alert.item('acme', '01J1', new Date('2025-01-01T00:00:00Z')),
    keys.userActivity.item('acme', '2025-01-01T00:00:00.000Z', 'log-1'),
    keys.deviceActivity.item('acme', { activityTime: '2025-01-01T00:00:00.000Z', logId: 'log-2', deviceReference: 'dev-1' }),
    keys.transferConfig.item('acme', 'nightly'),
    keys.transfer.item('acme', '01JTRANSFER'),
  ];

  it('starts every partition key with the tenant and tags every item', () => {
    for (const item of items) {
      expect(item.pk.startsWith('C#acme#')).toBe(true);
      expect(Object.values(ENTITY)).toContain(item.entity);
      for (const attribute of ['gsi1pk', 'gsi2pk', 'gsi3pk'] as const) {
        const value = item[attribute];
        if (value !== undefined) expect(value).toMatch(/^C#[a-z0-9-]+#/);
      }
    }
  });

  it('uses only the attributes the table defines', () => {
    for (const item of items) {
      for (const name of Object.keys(item)) {
        if (name !== 'entity') expect(KEY_ATTRIBUTES).toContain(name);
      }
    }
  });

  it('places list queries on the partition the items are written to', () => {
    const device = keys.device.item('acme', 'dev-1', 'du-1', 'Sales');
    expect(keys.device.list('acme')).toEqual({ index: 'gsi1', partition: device.gsi1pk });
    expect(keys.device.listByDeviceUser('acme', 'du-1')).toEqual({ index: 'gsi2', partition: device.gsi2pk });
    expect(keys.device.listByGroup('acme', 'Sales')).toEqual({ index: 'gsi3', partition: device.gsi3pk });
    // Narrowed to the roles' own sort keys: the partition also holds the versions a change of a role keeps.
    expect(keys.role.list('acme')).toEqual({ partition: keys.role.item('acme', 'x').pk, sort: { beginsWith: 'ROLE#' } });
    const payload = keys.payload.item('acme', { payloadReference: 'p', payloadTime: '2025-01-01T00:00:00.000Z', deviceReference: 'd' });
    expect(keys.payload.key('acme', 'p')).toEqual({ pk: payload.pk, sk: payload.sk });
    expect(keys.payload.listByDevice('acme', 'd').partition).toBe(payload.gsi2pk);
    const processed = keys.payload.processedKeys('acme', 'p', '2025-01-01T00:05:00.000Z');
    expect(keys.payload.listProcessed('acme')).toEqual({ index: 'byProcessedAt', partition: processed.by_processed_at_pk });
    expect(processed.by_processed_at_pk).toMatch(/^C#acme#/);
    expect(Object.keys(processed).sort()).toEqual([...keys.payload.processedKeyAttributes].sort());
    for (const name of keys.payload.processedKeyAttributes) expect(KEY_ATTRIBUTES).toContain(name);
  });

  it('orders the Processed recordings by processing time, then reference', () => {
    const sort = (reference: string, at: string) => keys.payload.processedKeys('acme', reference, at).by_processed_at_sk ?? '';
    const ordered = [sort('z', '2025-01-01T00:00:00.000Z'), sort('a', '2025-01-01T00:00:00.001Z'), sort('b', '2025-01-01T00:00:00.001Z'), sort('a#b', '2026-01-01T00:00:00.000Z')];
    expect([...ordered].sort()).toEqual(ordered);
    // A window's key range (report_from to report_to~) holds every key processed at its end.
    expect(sort('any', '2025-01-01T00:00:00.001Z') <= '2025-01-01T00:00:00.001Z~').toBe(true);
  });

  it('keeps terms acceptances apart per user, staff and version', () => {
    const at = '2026-11-01T00:00:00.000Z';
    const user = keys.termsAcceptance.item('acme', { reference: 'sam', staff: false }, at);
    const staff = keys.termsAcceptance.item('acme', { reference: 'sam', staff: true }, at);
    expect(user.pk).toBe('C#acme#TERMS_ACCEPTANCES');
    expect(user.pk).not.toBe(keys.portalUser.item('acme', 'sam').pk);
    expect(user.sk).toBe(`USER#sam#TERMS#${at}`);
    expect(staff.sk).toBe(`STAFF#sam#TERMS#${at}`);
    // A subject carrying separators cannot forge another user's (or another version's) key.
    expect(keys.termsAcceptance.item('acme', { reference: 'sam#TERMS#x', staff: false }, at).sk).toBe(`USER#sam%23TERMS%23x#TERMS#${at}`);
    expect(() => keys.termsAcceptance.item('Not A Client', { reference: 'sam', staff: false }, at)).toThrow();
  });

  it('orders time-sorted keys by time', () => {
    const earlier = keys.alert.item('acme', 'z', '2025-01-01T00:00:00.000Z').gsi1sk as string;
    const later = keys.alert.item('acme', 'a', '2025-01-02T00:00:00.000Z').gsi1sk as string;
    expect(earlier < later).toBe(true);
  });

  it('escapes separators so one reference cannot impersonate another', () => {
    expect(part('a#b')).toBe('a%23b');
    expect(part('50%#')).toBe('50%25%23');
    expect(keys.group.item('acme', 'a#GROUP#b').sk).toBe('GROUP#a%23GROUP%23b');
    expect(keys.device.item('acme', 'x#DEVICE').pk).not.toBe(keys.device.item('acme', 'x').pk + '#DEVICE');
  });

  it('refuses anything but a client slug as the tenant', () => {
    for (const client of ['', 'ACME', 'a', 'acme#x', 'ac me', '../etc', 'x'.repeat(64)]) {
      expect(() => tenantPrefix(client), client).toThrow(/Not a client slug/);
    }
    expect(() => keys.device.item('acme#C#globex', 'd')).toThrow();
    expect(() => payloadObjectKey('../other', 'p')).toThrow();
    expect(payloadObjectKey('acme', '01J/../x')).toBe('acme/payloads/01J%2F..%2Fx');
  });

  it('lists clients from the provider\'s own tenant', () => {
    expect(keys.account.listAll()).toEqual({ index: 'gsi1', partition: 'C#admin#CLIENTS' });
    expect(keys.account.item('acme').gsi1pk).toBe('C#admin#CLIENTS');
  });
});
