import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/sign-in.ts';
import { api, bearer } from './support/stack.ts';

/**
 * Device users end to end against the local stack as admin@demo.test: onboard, offboard and re-onboard with the
 * group stats and dashboard counters that move in the same transaction; hostile input; the reviewer only reads.
 * Every reference carries this run's id, so reruns and other files never meet these items.
 */
const run = randomUUID().slice(0, 8);
const BASE = '/api/v1/demo';
let admin: string;
let reviewer: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
}

async function call(method: string, path: string, body?: unknown, as = admin): Promise<Answer> {
  const response = await api(`${BASE}${path}`, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const groupA = `it-${run}-du-a`;
const groupB = `it-${run}-du-b`;
const userBody = (overrides: Record<string, unknown> = {}) => ({
  group: groupA,
  services: ['calls', 'sms'],
  expected_device_count: 2,
  email: 'pat@example.test',
  first_name: 'Pat',
  surname: 'Lee',
  ...overrides,
});
type Stats = { device_users: number; expected_devices: number; services: Record<string, { active_users: number; expected_devices: number }> };
const stats = async (group: string) => (await call('GET', `/groups/${group}`)).body.stats as Stats;
const users = async () => (await call('GET', '/dashboard')).body.users as Record<string, number>;

beforeAll(async () => {
  admin = (await signIn('admin@demo.test')).id_token;
  reviewer = (await signIn('reviewer@demo.test')).id_token;
  for (const group of [groupA, groupB]) expect((await call('PUT', `/groups/${group}`, { tags: [] })).status).toBe(200);
});

describe('onboard, update, offboard, re-onboard', () => {
  const ref = `it-${run}-pat`;

  it('moves group stats and dashboard counters with each write', async () => {
    const start = await users();

    const created = await call('POST', `/users/${ref}`, userBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ device_user_reference: ref, is_active: true, group: groupA, updated_by: 'demo-admin' });
    expect(created.body.onboard_date).toEqual(expect.any(String));
    expect(await stats(groupA)).toMatchObject({ device_users: 1, expected_devices: 2, services: { calls: { active_users: 1, expected_devices: 2 } } });
    expect((await users()).onboarded).toBe(start.onboarded! + 1);

    // Onboarding an active user again is a conflict, and changes nothing.
    expect((await call('POST', `/users/${ref}`, userBody())).status).toBe(409);
    expect((await stats(groupA)).device_users).toBe(1);

    // Moving group and expected count moves both groups' stats.
    const moved = await call('PUT', `/users/${ref}`, userBody({ group: groupB, expected_device_count: 3, services: ['gps'] }));
    expect(moved.status).toBe(200);
    expect(await stats(groupA)).toMatchObject({ device_users: 0, expected_devices: 0 });
    expect(await stats(groupB)).toMatchObject({ device_users: 1, expected_devices: 3, services: { gps: { active_users: 1, expected_devices: 3 } } });

    // Offboard: the record stays, inactive, with an offboard date; twice is no change.
    expect((await call('DELETE', `/users/${ref}`)).body).toEqual({ ok: true });
    expect((await call('DELETE', `/users/${ref}`)).body).toEqual({ ok: true });
    const offboarded = await call('GET', `/users/${ref}`);
    expect(offboarded.body).toMatchObject({ is_active: false, offboard_date: expect.any(String) });
    expect((await stats(groupB)).device_users).toBe(0);
    const afterOffboard = await users();
    expect(afterOffboard.onboarded).toBe(start.onboarded);
    expect(afterOffboard.offboarded).toBe(start.offboarded! + 1);

    // Re-onboard: active again, offboard_date cleared.
    const again = await call('POST', `/users/${ref}`, userBody());
    expect(again.status).toBe(200);
    expect(again.body.is_active).toBe(true);
    expect(again.body).not.toHaveProperty('offboard_date');
    expect((await stats(groupA)).device_users).toBe(1);
    expect(await users()).toMatchObject({ onboarded: start.onboarded! + 1, offboarded: start.offboarded });

    // PUT is_active false offboards as well.
    expect((await call('PUT', `/users/${ref}`, userBody({ is_active: false }))).body).toMatchObject({ is_active: false, offboard_date: expect.any(String) });
    expect((await stats(groupA)).device_users).toBe(0);
  });

  it('lists with filters and a cursor', async () => {
    const other = `it-${run}-sam`;
    expect((await call('POST', `/users/${other}`, userBody({ first_name: 'Sam', group: groupB }))).status).toBe(201);

    const seen: string[] = [];
    let lastKey: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const list = await call('GET', `/users?group=${groupB}&limit=1${lastKey ? `&last_key=${encodeURIComponent(lastKey)}` : ''}`);
      expect(list.status).toBe(200);
      seen.push(...(list.body.data as Array<{ device_user_reference: string }>).map((user) => user.device_user_reference));
      lastKey = list.body.last_key as string | undefined;
      if (!lastKey) break;
    }
    expect(seen).toEqual([other]);

    const active = await call('GET', `/users?search=it-${run}&active_only=true`);
    expect((active.body.data as Array<{ device_user_reference: string }>).map((user) => user.device_user_reference)).toEqual([other]);
    expect((await call('GET', `/users?search=it-${run}&result_type=total`)).body).toEqual({ count: 2 });
    expect((await call('GET', `/users/${other}/devices`)).body).toMatchObject({ count: 0, data: [] });

    // A cursor from one list does not open another.
    const first = await call('GET', `/users?group=${groupB}&limit=1`);
    const replay = await call('GET', `/users?group=${groupA}&limit=1&last_key=${encodeURIComponent(String(first.body.last_key ?? 'x'))}`);
    expect(replay.status).toBe(400);
  });
});

describe('refusals', () => {
  it('answers 400 path lines for hostile input, never a 5xx', async () => {
    const bad = await call('POST', `/users/${encodeURIComponent(' lead')}`, userBody());
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('params.device_user_reference: Cannot start with leading space, cannot contain a comma');

    const comma = await call('POST', `/users/${encodeURIComponent('a,b')}`, userBody());
    expect(comma.status).toBe(400);

    const body = await call('POST', `/users/it-${run}-bad`, userBody({ first_name: 'Lee, Pat', surname: ' x', email: 'not-an-email', expected_device_count: -1 }));
    expect(body.status).toBe(400);
    const lines = String(body.body.message).split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'body.first_name: Cannot start with leading space, cannot contain a comma',
        'body.surname: Cannot start with leading space, cannot contain a comma',
        'body.email: Must be a valid email address',
        'body.expected_device_count: Must be at least 0',
      ]),
    );

    const unknownGroup = await call('POST', `/users/it-${run}-nogroup`, userBody({ group: `it-${run}-missing` }));
    expect(unknownGroup).toMatchObject({ status: 400, body: { message: 'body.group: Unknown group' } });
    expect((await call('GET', `/users/it-${run}-nogroup`)).status).toBe(404);

    expect((await call('PUT', `/users/it-${run}-nobody`, userBody())).status).toBe(404);
    expect((await call('DELETE', `/users/it-${run}-nobody`)).status).toBe(404);
    expect((await call('POST', `/users/it-${run}-extra`, { ...userBody(), is_admin: true })).status).toBe(400);
  });

  it('the reviewer reads but cannot write', async () => {
    expect((await call('GET', '/users?limit=1', undefined, reviewer)).status).toBe(200);
    expect((await call('GET', '/dashboard', undefined, reviewer)).status).toBe(200);
    expect((await call('POST', `/users/it-${run}-rev`, userBody(), reviewer)).status).toBe(403);
    expect((await call('PUT', `/users/it-${run}-pat`, userBody(), reviewer)).status).toBe(403);
    expect((await call('DELETE', `/users/it-${run}-pat`, undefined, reviewer)).status).toBe(403);
  });
});
