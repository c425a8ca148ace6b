import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { adjustGroupStats } from '../../lambdas/metrics/group-stats.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { deleteTag } from '../../lambdas/access/tags/tags.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The access group end to end against the local stack, signed in as admin@demo.test: roles, tags (with the group
 * review), groups (with stats), account defaults and client apps. Every name carries this run's id, so reruns and
 * other test files never meet these items.
 */
const run = randomUUID().slice(0, 8);
const BASE = '/api/v1/demo';
let token: string;
let deps: Dependencies;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; errors?: string[] };
}

async function call(method: string, path: string, body?: unknown, as = token): Promise<Answer> {
  const response = await api(path.startsWith('/') && !path.startsWith('/api') && !path.startsWith('/internal') ? `${BASE}${path}` : path, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const alerts = { ops_read: true, ops_write: false, sec_read: false, sec_write: false };
const role = (overrides: Record<string, unknown> = {}) => ({
  permissions: [{ actions_matching: 'devices:*' }],
  alert_permissions: alerts,
  ...overrides,
});
const enc = encodeURIComponent;

beforeAll(async () => {
  token = (await signIn('admin@demo.test')).id_token;
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('roles', () => {
  const ref = `it-${run}-role`;

  it('create, read, list, replace and delete round trip', async () => {
    const created = await call('PUT', `/roles/${ref}`, role({ description: 'first' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      role_reference: ref,
      is_system: false,
      updated_by: 'demo-admin',
      payload_types: expect.arrayContaining(['Call', 'SMS']),
    });

    expect((await call('GET', `/roles/${ref}`)).body).toMatchObject({ description: 'first' });
    const replaced = await call('PUT', `/roles/${ref}`, role({ description: 'second', payload_types: ['Call'] }));
    expect(replaced.body).toMatchObject({ description: 'second', payload_types: ['Call'] });

    const seen: string[] = [];
    let lastKey: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const list = await call('GET', `/roles?limit=1${lastKey ? `&last_key=${enc(lastKey)}` : ''}`);
      expect(list.status).toBe(200);
      seen.push(...(list.body.data as Array<{ role_reference: string }>).map((item) => item.role_reference));
      lastKey = list.body.last_key as string | undefined;
      if (!lastKey) break;
    }
    expect(seen).toContain(ref);
    expect(seen).toContain('admin');
    const total = await call('GET', '/roles?result_type=total');
    expect(total.body).toEqual({ count: seen.length });

    expect((await call('DELETE', `/roles/${ref}`)).body).toEqual({ ok: true });
    expect((await call('GET', `/roles/${ref}`)).status).toBe(404);
    expect((await call('DELETE', `/roles/${ref}`)).status).toBe(404);
  });

  it('refuses to change or delete system roles', async () => {
    for (const answer of [await call('PUT', '/roles/admin', role()), await call('DELETE', '/roles/reviewer')]) {
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe('System roles cannot be changed');
    }
    expect((await call('GET', '/roles/admin')).body).toMatchObject({ is_system: true });
  });

  it('answers 400 with path lines for bad regexes and bad role bodies', async () => {
    const regex = await call(
      'PUT',
      `/roles/${ref}-rx`,
      role({ permissions: [{ actions_matching: '(a)\\1', is_regex: true, conditions: [{ names_matching: '[', is_regex: true }] }] }),
    );
    expect(regex.status).toBe(400);
    expect(regex.body.errors?.[0]).toMatch(/^body\.permissions\.0\.actions_matching: Must be a valid regular expression/);
    expect(regex.body.errors?.[1]).toMatch(/^body\.permissions\.0\.conditions\.0\.names_matching: Must be a valid regular expression/);

    const empty = await call('PUT', `/roles/${ref}-rx`, role({ permissions: [] }));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('body.permissions:');
    const condition = await call('PUT', `/roles/${ref}-rx`, role({ permissions: [{ actions_matching: '*', conditions: [{ is_denied: true }] }] }));
    expect(condition.body.message).toContain('A condition needs at least 1 property');
    expect((await call('GET', `/roles/${ref}-rx`)).status).toBe(404);
  });

  it('lists a tenant’s roles to staff on the internal console', async () => {
    const staff = (await signIn('staff@verity.test')).id_token;
    const list = await call('GET', '/internal/v1/clients/demo/roles', undefined, staff);
    expect(list.status).toBe(200);
    expect((list.body.data as Array<{ role_reference: string }>).map((item) => item.role_reference)).toContain('admin');
  });
});

describe('tags and the group review', () => {
  const tag = `it-${run}-colour`;
  const red = `it-${run}-red-group`;
  const blue = `it-${run}-blue-group`;
  const plain = `it-${run}-plain-group`;

  it('create and read a definition, refuse a bad required definition', async () => {
    const created = await call('PUT', `/tags/${tag}`, { tag_values: ['red', 'blue'] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ tag_key: tag, tag_values: ['red', 'blue'], is_required: false, default_value: null });
    expect((await call('GET', `/tags/${tag}`)).body).toMatchObject({ tag_key: tag });
    const list = await call('GET', '/tags?limit=100');
    expect((list.body.data as Array<{ tag_key: string }>).some((item) => item.tag_key === tag)).toBe(true);

    const required = await call('PUT', `/tags/${tag}-req`, { tag_values: [], is_required: true });
    expect(required.status).toBe(400);
    expect(required.body.message).toContain('body.default_value: A required tag needs a default value and a non-empty value list');
    const duplicate = await call('PUT', `/tags/${tag}-dup`, { tag_values: ['a', 'a'] });
    expect(duplicate.body.message).toContain('body.tag_values: Must not contain duplicates');
  });

  it('answers 409 listing the conflicting groups, then applies with force_update', async () => {
    expect((await call('PUT', `/groups/${red}`, { tags: [{ tag_key: tag, tag_value: 'red' }] })).status).toBe(200);
    expect((await call('PUT', `/groups/${blue}`, { tags: [{ tag_key: tag, tag_value: 'blue' }] })).status).toBe(200);

    const narrowed = await call('PUT', `/tags/${tag}`, { tag_values: ['red'] });
    expect(narrowed.status).toBe(409);
    expect(narrowed.body.errors).toEqual([`groups.${blue}: Value "blue" of tag ${tag} is not in the allowed values`]);
    expect((await call('GET', `/tags/${tag}`)).body).toMatchObject({ tag_values: ['red', 'blue'] });

    expect((await call('PUT', `/groups/${plain}`, { tags: [] })).status).toBe(200);
    const required = await call('PUT', `/tags/${tag}`, { tag_values: ['red', 'blue'], is_required: true, default_value: 'red' });
    expect(required.status).toBe(409);
    // Other test files' groups of the tenant may lack the tag too; the two that carry it are not listed.
    expect(required.body.errors).toContain(`groups.${plain}: Required tag ${tag} is missing`);
    expect(required.body.message).not.toContain(red);
    expect((await call('GET', `/tags/${tag}`)).body).toMatchObject({ is_required: false });

    const forced = await call('PUT', `/tags/${tag}`, { tag_values: ['red'], force_update: true });
    expect(forced.status).toBe(200);
    expect((await call('GET', `/tags/${tag}`)).body).toMatchObject({ tag_values: ['red'] });
    // The group keeps its value until its next PUT, which must then satisfy the definition.
    const again = await call('PUT', `/groups/${blue}`, { tags: [{ tag_key: tag, tag_value: 'blue' }] });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual(['body.tags.0.tag_value: Must be one of the values allowed by the tag definition']);
  });

  it('refuses to delete a tag that groups use', async () => {
    const refused = await call('DELETE', `/tags/${tag}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(expect.arrayContaining([`groups.${red}: Uses tag ${tag}`, `groups.${blue}: Uses tag ${tag}`]));
    for (const group of [red, blue, plain]) expect((await call('DELETE', `/groups/${group}`)).status).toBe(200);
    expect((await call('DELETE', `/tags/${tag}`)).body).toEqual({ ok: true });
    expect((await call('GET', `/tags/${tag}`)).status).toBe(404);
  });
});

describe('groups', () => {
  const required = `it-${run}-site`;
  const group = `it-${run}-group`;

  it('round trip; stats kept across a PUT and guarded on delete', async () => {
    // An optional enumeration: a required one would make other test files' groups fail review.
    expect((await call('PUT', `/tags/${required}`, { tag_values: ['hq', 'lab'], default_value: 'hq' })).status).toBe(200);
    const created = await call('PUT', `/groups/${group}`, { tags: [{ tag_key: required, tag_value: 'lab' }] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      group_reference: group,
      tags: [{ tag_key: required, tag_value: 'lab' }],
      stats: { device_users: 0, expected_devices: 0, actual_devices: 0, services: {} },
    });

    await adjustGroupStats(deps, 'demo', group, { device_users: 2, expected_devices: 3, services: { sms: { used_licenses: 2 } } });
    const replaced = await call('PUT', `/groups/${group}`, { tags: [] });
    expect(replaced.body).toMatchObject({
      tags: [],
      stats: { device_users: 2, expected_devices: 3, services: { sms: { used_licenses: 2, active_users: 0 } } },
    });
    const list = await call('GET', '/groups?limit=100');
    expect(list.status).toBe(200);

    const refused = await call('DELETE', `/groups/${group}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('The group still has device users');
    await adjustGroupStats(deps, 'demo', group, { device_users: -2 });
    await expect(adjustGroupStats(deps, 'demo', group, { device_users: -1 })).rejects.toThrow(/below zero/);
    expect((await call('DELETE', `/groups/${group}`)).body).toEqual({ ok: true });
    expect((await call('GET', `/groups/${group}`)).status).toBe(404);
    await expect(adjustGroupStats(deps, 'demo', group, { device_users: 1 })).rejects.toThrow(/Unknown group/);
    expect((await call('GET', `/groups/${group}`)).status).toBe(404);
  });

  it('answers 400 with path lines for hostile tag lists', async () => {
    const cases: Array<[unknown, string]> = [
      [{ tags: Array.from({ length: 51 }, (_, i) => ({ tag_key: `k${i}`, tag_value: 'v' })) }, 'body.tags: Must contain between 0 and 50 items'],
      [{ tags: [{ tag_key: required, tag_value: 'hq' }, { tag_key: required, tag_value: 'lab' }] }, 'body.tags: Must not contain duplicates'],
      [{ tags: [{ tag_key: required, tag_value: 'x'.repeat(256) }] }, 'body.tags.0.tag_value: Must be at most 255 characters'],
      [{ tags: [{ tag_key: `it-${run}-nope`, tag_value: 'v' }] }, 'body.tags.0.tag_key: Unknown tag'],
      [{ tags: [{ tag_key: required, tag_value: 'basement' }] }, 'body.tags.0.tag_value: Must be one of the values allowed by the tag definition'],
      [{ tags: [{ tag_key: required, tag_value: 'hq', extra: 1 }] }, 'body.tags.0.extra:'],
      [{ tags: 'all' }, 'body.tags:'],
    ];
    for (const [body, line] of cases) {
      const answer = await call('PUT', `/groups/${group}-hostile`, body);
      expect(answer.status, line).toBe(400);
      expect(answer.body.message, line).toContain(line);
    }
    expect((await call('GET', `/groups/${group}-hostile`)).status).toBe(404);
    expect((await call('DELETE', `/tags/${required}`)).status).toBe(200);
  });
});

describe('starts_with on the roles, groups and tags lists', () => {
  const prefix = `it-${run}-sw`;

  it('keeps only references starting with it, pages within them, and binds the cursor to the prefix', async () => {
    for (const name of ['a', 'b', 'c']) {
      expect((await call('PUT', `/groups/${prefix}-${name}`, { tags: [] })).status).toBe(200);
      expect((await call('PUT', `/roles/${prefix}-${name}`, role())).status).toBe(200);
      expect((await call('PUT', `/tags/${prefix}-${name}`, { tag_values: null })).status).toBe(200);
    }
    // A neighbour that shares all but the last character stays out.
    expect((await call('PUT', `/groups/it-${run}-sx-a`, { tags: [] })).status).toBe(200);

    for (const [list, field] of [['groups', 'group_reference'], ['roles', 'role_reference'], ['tags', 'tag_key']] as const) {
      const seen: string[] = [];
      let lastKey: string | undefined;
      do {
        const page = await call('GET', `/${list}?starts_with=${enc(prefix)}&limit=2${lastKey ? `&last_key=${enc(lastKey)}` : ''}`);
        expect(page.status, list).toBe(200);
        seen.push(...(page.body.data as Array<Record<string, string>>).map((item) => String(item[field])));
        lastKey = page.body.last_key as string | undefined;
      } while (lastKey !== undefined);
      expect(seen, list).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);
      expect((await call('GET', `/${list}?starts_with=${enc(prefix)}&result_type=total`)).body, list).toEqual({ count: 3 });
    }

    // A cursor of one prefix does not resume another list.
    const first = await call('GET', `/groups?starts_with=${enc(prefix)}&limit=1`);
    const replayed = await call('GET', `/groups?starts_with=it-&limit=1&last_key=${enc(String(first.body.last_key))}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toContain('query.last_key: Invalid cursor');
    // A `#` or `%` in the prefix is a literal character, never a way out of the sort key.
    expect((await call('GET', `/groups?starts_with=${enc('#')}`)).body).toMatchObject({ count: 0, data: [] });
    expect((await call('GET', `/groups?starts_with=${enc('%')}`)).body).toMatchObject({ count: 0, data: [] });

    for (const [query, line] of [
      ['starts_with=', 'query.starts_with: Must be between 1 and 255 characters'],
      [`starts_with=${'x'.repeat(256)}`, 'query.starts_with: Must be between 1 and 255 characters'],
    ]) {
      const answer = await call('GET', `/groups?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toContain(line);
    }

    for (const name of ['a', 'b', 'c']) {
      await call('DELETE', `/groups/${prefix}-${name}`);
      await call('DELETE', `/roles/${prefix}-${name}`);
      await call('DELETE', `/tags/${prefix}-${name}`);
    }
    await call('DELETE', `/groups/it-${run}-sx-a`);
  });
});

describe('required tags (tenant acme, so no other file meets the forced definition)', () => {
  const tag = `it-${run}-division`;
  const group = `it-${run}-acme-group`;

  it('fills a required tag with its default, per tenant; a forced delete strips the tag from groups', async () => {
    const acme = (await signIn('admin@acme.test')).id_token;
    const at = (path: string) => `/api/v1/acme${path}`;
    const forced = await call('PUT', at(`/tags/${tag}`), { tag_values: ['ops', 'dev'], is_required: true, default_value: 'ops', force_update: true }, acme);
    expect(forced.status).toBe(200);
    try {
      const created = await call('PUT', at(`/groups/${group}`), { tags: [] }, acme);
      expect(created.body).toMatchObject({ tags: [{ tag_key: tag, tag_value: 'ops' }] });
      const chosen = await call('PUT', at(`/groups/${group}`), { tags: [{ tag_key: tag, tag_value: 'dev' }] }, acme);
      expect(chosen.body).toMatchObject({ tags: [{ tag_key: tag, tag_value: 'dev' }] });
      // The demo tenant's definitions never apply to acme.
      expect((await call('GET', `/tags/${tag}`)).status).toBe(404);
    } finally {
      expect((await call('DELETE', at(`/tags/${tag}`), undefined, acme)).status).toBe(409);
    }
    // The contract's tag DELETE takes no force_update yet, so the forced path is driven through the service.
    await deleteTag(tenantCaller(deps, 'acme', undefined, { action: 'tags:Delete' }), tag, true);
    expect((await call('GET', at(`/tags/${tag}`), undefined, acme)).status).toBe(404);
    expect((await call('GET', at(`/groups/${group}`), undefined, acme)).body).toMatchObject({ tags: [] });
    expect((await call('DELETE', at(`/groups/${group}`), undefined, acme)).status).toBe(200);
  });
});

describe('reviewer', () => {
  it('reads roles, groups and tags but changes none', async () => {
    const reviewer = (await signIn('reviewer@demo.test')).id_token;
    for (const path of ['/roles', '/groups', '/tags', '/roles/admin']) {
      expect((await call('GET', path, undefined, reviewer)).status, path).toBe(200);
    }
    const writes: Array<[string, string, unknown]> = [
      ['PUT', `/roles/it-${run}-rv`, role()],
      ['PUT', `/groups/it-${run}-rv`, { tags: [] }],
      ['PUT', `/tags/it-${run}-rv`, { tag_values: null }],
      ['DELETE', '/groups/anything', undefined],
    ];
    for (const [method, path, body] of writes) {
      expect((await call(method, path, body, reviewer)).status, `${method} ${path}`).toBe(403);
    }
    expect((await call('GET', `/roles/it-${run}-rv`)).status).toBe(404);
  });
});

describe('account defaults', () => {
  const ref = `it-${run}-default`;

  it('names only existing roles, and a default role cannot be deleted', async () => {
    const before = await call('GET', '/account/defaults');
    expect(before.status).toBe(200);
    const unknown = await call('PUT', '/account/defaults', { role: `it-${run}-ghost` });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual(['body.role: Unknown role']);
    expect((await call('PUT', '/account/defaults', { cidr_ranges: ['not a cidr'] })).body.message).toContain('body.cidr_ranges.0:');

    expect((await call('PUT', `/roles/${ref}`, role())).status).toBe(200);
    try {
      const saved = await call('PUT', '/account/defaults', { role: ref, user_group: `it-${run}-users` });
      expect(saved.status).toBe(200);
      expect((await call('GET', '/account/defaults')).body).toMatchObject({ role: ref, user_group: `it-${run}-users`, cidr_ranges: [] });
      const refused = await call('DELETE', `/roles/${ref}`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('The role is the account default role');
    } finally {
      // Put back what the tenant had (the seed's default role), so other test files see the usual defaults.
      const restore = before.body as { role?: string; user_group?: string; cidr_ranges?: string[] };
      await call('PUT', '/account/defaults', {
        ...(restore.role ? { role: restore.role } : {}),
        ...(restore.user_group ? { user_group: restore.user_group } : {}),
        cidr_ranges: restore.cidr_ranges ?? [],
      });
    }
    expect((await call('DELETE', `/roles/${ref}`)).status).toBe(200);
  });
});

describe('client apps', () => {
  const ref = `it-${run} app`;
  const app = (overrides: Record<string, unknown> = {}) => ({
    oidc_config: { issuer: 'https://idp.example.com', audience: 'verity-api', jwks_uri: 'https://idp.example.com/jwks.json' },
    roles: ['reviewer'],
    ...overrides,
  });

  it('create, conflict, read, replace, list and delete', async () => {
    const created = await call('POST', `/account/apps/${enc(ref)}`, app({ group: 'field-team' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ app_reference: ref, roles: ['reviewer'], group: 'field-team', cidr_ranges: [] });
    const again = await call('POST', `/account/apps/${enc(ref)}`, app());
    expect(again.status).toBe(409);

    const replaced = await call('PUT', `/account/apps/${enc(ref)}`, app({ roles: ['admin', 'reviewer'], cidr_ranges: ['10.0.0.0/8'] }));
    expect(replaced.body).toMatchObject({ roles: ['admin', 'reviewer'], cidr_ranges: ['10.0.0.0/8'] });
    expect(replaced.body.group).toBeUndefined();
    expect((await call('GET', `/account/apps/${enc(ref)}`)).body).toMatchObject({ roles: ['admin', 'reviewer'] });
    const list = await call('GET', '/account/apps?limit=100');
    expect((list.body.data as Array<{ app_reference: string }>).map((item) => item.app_reference)).toContain(ref);

    expect((await call('DELETE', `/account/apps/${enc(ref)}`)).body).toEqual({ ok: true });
    expect((await call('GET', `/account/apps/${enc(ref)}`)).status).toBe(404);
    expect((await call('PUT', `/account/apps/${enc(ref)}`, app())).status).toBe(404);
    expect((await call('DELETE', `/account/apps/${enc(ref)}`)).status).toBe(404);
  });

  it('answers 400 with path lines for unknown roles and bad OIDC settings', async () => {
    const unknown = await call('POST', `/account/apps/${enc(ref)}-x`, app({ roles: ['reviewer', `it-${run}-ghost`] }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual(['body.roles.1: Unknown role']);
    const bad = await call(
      'POST',
      `/account/apps/${enc(ref)}-x`,
      app({ oidc_config: { issuer: 'http://idp.example.com', audience: 'x', jwks_uri: 'javascript:alert(1)' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.oidc_config.issuer: Must start with https://');
    expect(bad.body.message).toContain('body.oidc_config.audience:');
    expect(bad.body.message).toContain('body.oidc_config.jwks_uri: Must start with https://');
    expect((await call('POST', '/account/apps/%20lead', app())).body.message).toContain('params.app_reference:');
    expect((await call('GET', `/account/apps/${enc(ref)}-x`)).status).toBe(404);
  });
});
