import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { GROUP_TAG_LIMIT } from '#shared/constants/limits.ts';
import { DeviceUser, DeviceUserRequest } from '#shared/contract/entities/device-users.ts';
import { GroupRequest, TagDefinitionRequest, type TagDefinition } from '#shared/contract/entities/groups.ts';
import { GroupReference, TagKey } from '#shared/contract/fields.ts';
import { resolveGroupTags } from '../../../lambdas/access/groups/group-tags.ts';
import { DEMO_TENANTS } from './accounts.ts';
import { fleetPlacements } from './fleet.ts';
import { DEMO_ACCESS, accessMarkerKey, placementRequest, seedDemoAccess } from './groups.ts';

const definitionsOf = (client: string): TagDefinition[] =>
  (DEMO_ACCESS.find((tenant) => tenant.client === client)?.tags ?? []).map(({ tag_key, request }) => ({
    tag_key,
    tag_values: request.tag_values,
    is_required: request.is_required,
    default_value: request.default_value ?? null,
  }));

describe('demo access data', () => {
  it('seeds both demo tenants, demo with 3-4 groups and acme with fewer', () => {
    expect(DEMO_ACCESS.map((tenant) => tenant.client)).toEqual([...DEMO_TENANTS]);
    const [demo, acme] = DEMO_ACCESS;
    expect(demo?.groups.length).toBeGreaterThanOrEqual(3);
    expect(demo?.groups.length).toBeLessThanOrEqual(4);
    expect(acme?.groups.length).toBeLessThan(demo?.groups.length ?? 0);
    expect(demo?.tags.map((tag) => tag.tag_key)).toEqual(['region', 'desk', 'risk']);
    expect(demo?.tags.find((tag) => tag.tag_key === 'risk')?.request.tag_values).toBeNull();
  });

  it('writes only what the contract and the tag service accept, and no required tag', () => {
    for (const tenant of DEMO_ACCESS) {
      for (const { tag_key, request } of tenant.tags) {
        expect(TagKey.parse(tag_key)).toBe(tag_key);
        expect(TagDefinitionRequest.parse(request)).toEqual(request);
        // A required tag would be filled into every group of the tenant, other tools' and tests' included.
        expect(request.is_required).toBe(false);
      }
      for (const { group_reference, request } of tenant.groups) {
        expect(GroupReference.parse(group_reference)).toBe(group_reference);
        expect(GroupRequest.parse(request).tags.length).toBeLessThanOrEqual(GROUP_TAG_LIMIT);
        expect(resolveGroupTags(request.tags, definitionsOf(tenant.client)), `${tenant.client}/${group_reference}`).toEqual({
          ok: true,
          tags: request.tags,
        });
      }
    }
  });

  it('places every fleet user in a demo group', () => {
    const placements = fleetPlacements();
    expect(placements).toHaveLength(5);
    const demoGroups = DEMO_ACCESS.find((tenant) => tenant.client === 'demo')?.groups.map((group) => group.group_reference) ?? [];
    for (const placement of placements) expect(demoGroups).toContain(placement.group);
    // More than one group has users, so the group filter of the device-users screen shows something.
    expect(new Set(placements.map((placement) => placement.group)).size).toBeGreaterThan(2);
  });

  it('keeps a device user as it is when placing it, and refuses one the PUT body cannot carry', () => {
    const user = DeviceUser.parse({
      device_user_reference: 'du-x',
      services: ['calls'],
      expected_device_count: 2,
      email: 'x@demo.test',
      first_name: 'X',
      surname: 'Y',
      is_active: false,
    });
    const request = placementRequest(user, 'compliance');
    expect(DeviceUserRequest.parse(request)).toEqual({ ...request, group: 'compliance' });
    expect(request).toMatchObject({ is_active: false, expected_device_count: 2, services: ['calls'] });
    expect(placementRequest({ ...user, services: [] }, 'compliance')).toBeUndefined();
    expect(placementRequest({ ...user, email: undefined }, 'compliance')).toBeUndefined();
  });
});

/**
 * A stand-in for the admin API of both tenants: it checks bodies with the contract and group tags with the tag
 * service's own check, and keeps what was written, so the seed's effects and its second run can be observed.
 */
function fakeApi() {
  const tenants = new Map<string, { tags: Map<string, TagDefinition>; groups: Map<string, unknown>; users: Map<string, DeviceUser> }>();
  const tenant = (client: string) => {
    let found = tenants.get(client);
    if (found === undefined) tenants.set(client, (found = { tags: new Map(), groups: new Map(), users: new Map() }));
    return found;
  };
  const writes: string[] = [];
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const match = /\/api\/v1\/([^/]+)\/(tags|groups|users)\/([^/]+)$/.exec(new URL(url).pathname);
    if (match === null) return answer(404, { message: 'Not found' });
    const [, client = '', kind = '', encoded = ''] = match;
    const reference = decodeURIComponent(encoded);
    expect(new Headers(init.headers).get('authorization')).toBe(`Bearer token-of-admin@${client}.test`);
    const state = tenant(client);
    const store = kind === 'tags' ? state.tags : kind === 'groups' ? state.groups : state.users;
    if ((init.method ?? 'GET') === 'GET') return store.has(reference) ? answer(200, store.get(reference)) : answer(404, { message: 'Not found' });
    writes.push(`${client} PUT ${kind}/${reference}`);
    const body: unknown = JSON.parse(String(init.body));
    if (kind === 'tags') {
      const request = TagDefinitionRequest.parse(body);
      state.tags.set(reference, { tag_key: reference, tag_values: request.tag_values, is_required: request.is_required, default_value: null });
    } else if (kind === 'groups') {
      const resolved = resolveGroupTags(GroupRequest.parse(body).tags, [...state.tags.values()]);
      if (!resolved.ok) return answer(400, { errors: resolved.lines });
      state.groups.set(reference, { group_reference: reference, tags: resolved.tags });
    } else {
      const request = DeviceUserRequest.parse(body);
      if (!state.groups.has(request.group)) return answer(400, { message: 'body.group: Unknown group' });
      const before = state.users.get(reference);
      if (before === undefined) return answer(404, { message: 'Device user not found' });
      state.users.set(reference, DeviceUser.parse({ ...before, ...request }));
    }
    return answer(200, {});
  });
  return { fetch, writes, tenant };
}

function fakeTable() {
  const items = new Map<string, TableItem>();
  const id = (key: { pk: unknown; sk: unknown }) => `${String(key.pk)}|${String(key.sk)}`;
  const table = {
    get: async (key: { pk: unknown; sk: unknown }) => items.get(id(key)),
    put: async (item: TableItem) => void items.set(id(item), item),
  };
  return { deps: { table } as unknown as Pick<Dependencies, 'table'>, items, id };
}

const signIn = async (_url: string, email: string) => `token-of-${email}`;
const fleetUser = (reference: string, overrides: Partial<DeviceUser> = {}) =>
  DeviceUser.parse({ client: 'demo', device_user_reference: reference, services: ['calls', 'sms'], email: `${reference}@demo.test`, first_name: 'F', surname: 'S', is_active: true, ...overrides });

describe('seedDemoAccess', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates the tags, groups and placements through the API once; a second run adds nothing', async () => {
    const api = fakeApi();
    vi.stubGlobal('fetch', api.fetch);
    const { deps, items, id } = fakeTable();
    for (const placement of fleetPlacements()) api.tenant('demo').users.set(placement.device_user_reference, fleetUser(placement.device_user_reference));

    expect(await seedDemoAccess(deps, 'http://stack.test', fleetPlacements(), { signIn })).toBe(true);
    for (const access of DEMO_ACCESS) {
      const state = api.tenant(access.client);
      expect([...state.tags.keys()]).toEqual(access.tags.map((tag) => tag.tag_key));
      expect([...state.groups.keys()]).toEqual(access.groups.map((group) => group.group_reference));
      for (const { group_reference, request } of access.groups) expect(state.groups.get(group_reference)).toEqual({ group_reference, tags: request.tags });
    }
    for (const placement of fleetPlacements()) {
      expect(api.tenant('demo').users.get(placement.device_user_reference)).toMatchObject({ group: placement.group, services: ['calls', 'sms'], is_active: true });
    }
    expect(items.get(id(accessMarkerKey()))).toMatchObject({ entity: 'LocalSeed' });

    const written = api.writes.length;
    const calls = api.fetch.mock.calls.length;
    expect(written).toBe(DEMO_ACCESS.reduce((sum, access) => sum + access.tags.length + access.groups.length, 0) + fleetPlacements().length);
    expect(await seedDemoAccess(deps, 'http://stack.test', fleetPlacements(), { signIn })).toBe(false);
    expect(api.writes).toHaveLength(written);
    expect(api.fetch.mock.calls).toHaveLength(calls);
  });

  it('keeps what is already there: existing tags and groups, a user with a group; skips a missing user', async () => {
    const api = fakeApi();
    vi.stubGlobal('fetch', api.fetch);
    const { deps } = fakeTable();
    const demo = api.tenant('demo');
    demo.tags.set('region', { tag_key: 'region', tag_values: ['london', 'manchester', 'edinburgh', 'leeds'], is_required: false, default_value: null });
    demo.groups.set('compliance', { group_reference: 'compliance', tags: [] });
    demo.groups.set('mine', { group_reference: 'mine', tags: [] });
    const [moved, , ...rest] = fleetPlacements();
    demo.users.set(String(moved?.device_user_reference), fleetUser(String(moved?.device_user_reference), { group: 'mine' }));
    for (const placement of rest) demo.users.set(placement.device_user_reference, fleetUser(placement.device_user_reference));

    expect(await seedDemoAccess(deps, 'http://stack.test', fleetPlacements(), { signIn })).toBe(true);
    expect(api.writes).not.toContain('demo PUT tags/region');
    expect(api.writes).not.toContain('demo PUT groups/compliance');
    expect(demo.tags.get('region')?.tag_values).toContain('leeds');
    expect(demo.users.get(String(moved?.device_user_reference))?.group).toBe('mine');
    expect(api.writes.filter((write) => write.startsWith('demo PUT users/'))).toHaveLength(rest.length);
    for (const placement of rest) expect(demo.users.get(placement.device_user_reference)?.group).toBe(placement.group);
  });

  it('fails loudly when the API refuses a write, and leaves no marker so the next start tries again', async () => {
    const api = fakeApi();
    vi.stubGlobal('fetch', api.fetch);
    const { deps, items, id } = fakeTable();
    const broken = [{ client: 'demo', adminEmail: 'admin@demo.test', tags: [], groups: [{ group_reference: 'orphan', request: { tags: [{ tag_key: 'nope', tag_value: 'x' }] } }] }];
    await expect(seedDemoAccess(deps, 'http://stack.test', [], { signIn, access: broken })).rejects.toThrow(/PUT demo\/groups\/orphan answered 400/);
    expect(items.has(id(accessMarkerKey()))).toBe(false);
  });
});
