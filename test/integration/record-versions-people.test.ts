import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { authenticateDevice } from '../../lambdas/device-api/authenticate-device.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { removeRecordVersions } from '../../lambdas/account-data/retention/record-changes/version-removals.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer } from './support/stack.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Record versions of the records about people and their grouping, on the local stack: a legal hold placed, placed
 * again and released (by four eyes); a group changed, its counters moved by a device user, then its tag removed by a
 * forced tag definition delete; a tag definition changed and deleted; a device user onboarded, changed and offboarded;
 * a device whose holder moved group authenticating again. Each change keeps the version it replaced, EXACTLY as it
 * was stored (deep-equal), newest first; the history refuses other tenants (404), records outside a group-limited
 * role's groups (404) and a role without the record's read action (403).
 */
let tenant: RunTenant;
/** The tenant's admin as a portal user (the admin surface, history included, is portal sign-in only). */
let admin: string;
let north: string;
let noReads: string;
let demoAdmin: string;

const stored = async (key: { pk: string; sk: string }) => (await tenant.deps.table.get({ pk: key.pk, sk: key.sk }, { consistent: true })) as TableItem;
const history = (entity: string, reference: string, token = admin) => tenant.call('GET', `/history/${entity}/${encodeURIComponent(reference)}`, token);
const records = (answer: { body: Record<string, unknown> }) => (answer.body.data as Array<{ record: TableItem }>).map((version) => version.record);
const changes = (answer: { body: Record<string, unknown> }) => (answer.body.data as Array<{ change: string }>).map((version) => version.change);

const userRequest = (group: string, firstName: string) => ({ group, services: ['calls'], expected_device_count: 1, email: 'nora@example.com', first_name: firstName, surname: 'North', is_active: true });

beforeAll(async () => {
  tenant = await createRunTenant('versions-people');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const group of ['north', 'south']) await deps.table.put({ ...keys.group.item(client, group), client, group_reference: group, tags: [], updated_at: now });
  const role = (reference: string, permissions: unknown[]) =>
    deps.table.put({
      ...keys.role.item(client, reference),
      client,
      role_reference: reference,
      permissions,
      payload_types: [],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: now,
    });
  await role('north-only', [{ actions_matching: '*', is_denied: false, is_regex: false, conditions: [{ names_matching: 'north', is_denied: false, is_regex: false }] }]);
  await role('history-only', [{ actions_matching: 'activities:List', is_denied: false, is_regex: false }]);
  const portalUser = (sub: string, role: string) => portalTokenFor(client, { sub, email: `${sub}@example.com`, groups: [role] });
  admin = await portalUser('versions-admin', 'admin');
  north = await portalUser('north-viewer', 'north-only');
  noReads = await portalUser('history-viewer', 'history-only');
  demoAdmin = (await signIn('admin@demo.test')).id_token;
});

afterAll(async () => tenant?.close());

describe('record versions of people and groups', () => {
  it('keeps each earlier state of a device user, onboarded, changed and offboarded, exactly', async () => {
    expect((await tenant.call('POST', '/users/nora', admin, userRequest('north', 'Nora'))).status).toBe(201);
    const key = keys.deviceUser.key(tenant.client, 'nora');
    const onboarded = await stored(key);
    expect((await tenant.call('PUT', '/users/nora', admin, userRequest('north', 'Norah'))).status).toBe(200);
    const changed = await stored(key);
    expect((await tenant.call('DELETE', '/users/nora', admin)).status).toBe(200);

    const answer = await history('device-user', 'nora');
    expect(answer.status).toBe(200);
    expect(records(answer)).toEqual([changed, onboarded]);
    expect(answer.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'device-user', reference: 'nora', change: 'updated', replaced_by: 'versions-admin' })]));
    // Onboarded again for the device and hold tests below.
    expect((await tenant.call('POST', '/users/nora', admin, userRequest('north', 'Norah'))).status).toBe(200);
  });

  it('keeps a legal hold as it was before each placing and its release, exactly', async () => {
    const key = keys.legalHold.key(tenant.client, 'DeviceUser', 'nora');
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/nora', tenant.admin, {})).status).toBe(200);
    const placed = await stored(key);
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/nora', tenant.admin, {})).status).toBe(200);
    const placedAgain = await stored(key);
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/nora', tenant.admin)).status).toBe(200);
    expect((await stored(key)).is_active).toBe(false);

    const answer = await history('legal-hold', 'DeviceUser~nora');
    expect(answer.status).toBe(200);
    expect(records(answer)).toEqual([placedAgain, placed]);
    // The holds list (every type) reads only holds, not the versions beside them in the partition.
    const listed = await tenant.call('GET', '/account/legal_holds', tenant.admin);
    expect(listed.status).toBe(200);
    expect((listed.body.data as Array<{ target: string }>).map((hold) => hold.target)).toEqual(['nora']);
    // A role limited to the person's group reads it; the reference must name a kind of target.
    expect((await history('legal-hold', 'DeviceUser~nora', north)).status).toBe(200);
    expect((await history('legal-hold', 'Robot~nora')).status).toBe(400);
    expect((await history('legal-hold', 'PortalUser~never-held')).status).toBe(404);
  });

  it('keeps a group before each change exactly, its counters as they were, and the tag definition before each change and its delete', async () => {
    const tagKey = keys.tagDefinition.item(tenant.client, 'colour');
    const groupKey = keys.group.item(tenant.client, 'teal');
    expect((await tenant.call('PUT', '/tags/colour', admin, { tag_values: ['red', 'blue'], is_required: false })).status).toBe(200);
    const firstDefinition = await stored(tagKey);
    expect((await tenant.call('PUT', '/groups/teal', admin, { tags: [{ tag_key: 'colour', tag_value: 'red' }] })).status).toBe(200);
    const red = await stored(groupKey);
    expect((await tenant.call('PUT', '/groups/teal', admin, { tags: [{ tag_key: 'colour', tag_value: 'blue' }] })).status).toBe(200);
    // A device user joining moves the group's counters (an atomic ADD, no version): the next change keeps them.
    expect((await tenant.call('POST', '/users/tess', admin, { ...userRequest('teal', 'Tess'), email: 'tess@example.com' })).status).toBe(201);
    const blueCounted = await stored(groupKey);
    expect(blueCounted.stats_device_users).toBe(1);
    expect((await tenant.call('PUT', '/tags/colour', admin, { tag_values: ['red', 'blue', 'green'], is_required: false })).status).toBe(200);
    const secondDefinition = await stored(tagKey);
    // Forced: the tag also leaves the group, which keeps the group it replaced.
    expect((await tenant.call('DELETE', '/tags/colour?force_update=true', admin)).status).toBe(200);

    const groups = await history('group', 'teal');
    expect(groups.status).toBe(200);
    expect(records(groups)).toEqual([blueCounted, red]);
    const tags = await history('tag-definition', 'colour');
    expect(tags.status).toBe(200);
    expect(records(tags)).toEqual([secondDefinition, firstDefinition]);
    expect(changes(tags)).toEqual(['deleted', 'updated']);
  });

  it('keeps a device as it was when its holder moved group, and hides it from a role of the group it left', async () => {
    const device = ulid();
    const imeis = ['356938035643809'];
    const authenticate = async () =>
      authenticateDevice(tenant.deps, { ulid_encrypted: await sealDeviceReference(tenant.deps, tenant.client, device), phone_numbers: ['+447700900123'], imeis } as Parameters<typeof authenticateDevice>[1]);
    await tenant.deps.table.put({ ...keys.phoneNumber.item(tenant.client, '+447700900123', 'nora'), client: tenant.client, phone_number: '+447700900123', device_user_reference: 'nora' });
    await authenticate();
    const inNorth = await stored(keys.device.key(tenant.client, device));
    expect(inNorth.group).toBe('north');
    // Authenticating again with the same holder and group changes no assignment: no version.
    await authenticate();
    expect((await history('device-assignment', device)).body.data).toEqual([]);
    const inNorthAgain = await stored(keys.device.key(tenant.client, device));
    expect((await tenant.call('PUT', '/users/nora', admin, userRequest('south', 'Norah'))).status).toBe(200);
    await authenticate();

    const answer = await history('device-assignment', device);
    expect(answer.status).toBe(200);
    expect(records(answer)).toEqual([inNorthAgain]);
    expect(answer.body.data).toEqual([expect.objectContaining({ replaced_by: `device:${device}` })]);
    // Now in south: the north-limited role finds neither the device nor its holder, nor her hold.
    expect((await history('device-assignment', device, north)).status).toBe(404);
    expect((await history('device-user', 'nora', north)).status).toBe(404);
    expect((await history('legal-hold', 'DeviceUser~nora', north)).status).toBe(404);
  });

  it('refuses another tenant (404), a role without the record\'s read action (403) and hostile names (400)', async () => {
    // demo's admin, on demo's path, naming this tenant's records: they do not exist there.
    for (const [entity, reference] of [['group', 'teal'], ['tag-definition', 'colour'], ['device-user', 'nora'], ['legal-hold', 'DeviceUser~nora']]) {
      const response = await api(`/api/v1/demo/history/${entity}/${encodeURIComponent(String(reference))}`, { headers: bearer(demoAdmin) });
      expect(response.status, `${entity} on demo's path`).toBe(404);
    }
    for (const [entity, reference] of [['group', 'teal'], ['tag-definition', 'colour'], ['device-user', 'nora'], ['legal-hold', 'DeviceUser~nora'], ['device-assignment', 'any']]) {
      const answer = await history(String(entity), String(reference), noReads);
      expect(answer.status, String(entity)).toBe(403);
      expect(String(answer.body.message)).toMatch(/Not allowed: /);
    }
    expect((await history('group', 'never-a-group')).status).toBe(404);
    expect((await history('device-user', 'x'.repeat(600))).status).toBe(400);
  });

  it('takes a record\'s versions with it when its destruction removes them, and keeps them when it changed meanwhile', async () => {
    const key = keys.legalHold.key(tenant.client, 'DeviceUser', 'nora');
    const list = keys.recordVersion.listOf(key);
    const versionsLeft = async () => (await tenant.deps.table.query({ partition: list.partition, sort: list.sort, consistent: true })).items.length;
    expect(await versionsLeft()).toBe(2);
    const changedMeanwhile = { kind: 'expression' as const, expression: '#u = :u', names: { '#u': 'updated_at' }, values: { ':u': 'not as read' } };
    await removeRecordVersions(tenant.deps, key, changedMeanwhile);
    expect(await versionsLeft()).toBe(2);
    await removeRecordVersions(tenant.deps, key, { kind: 'item-exists' });
    expect(await versionsLeft()).toBe(0);
  });
});
