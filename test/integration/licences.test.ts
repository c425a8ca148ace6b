import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { recordCarrierSeen } from '../../lambdas/metrics/carriers.ts';
import { keys } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Licences and the internal console's client endpoints on the local stack. Limits are set on demo for `interviews`
 * only (no other test file uses that service; the others are set to the maximum, which is also the default) and put
 * back in afterAll. References carry this run's id.
 */
const run = randomUUID().slice(0, 8);
const MAX = 100_000;
let admin: string;
let reviewer: string;
let staff: string;
let deps: Dependencies;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
}
type Usage = { service: string; limit: number; used: number };

async function call(method: string, path: string, as: string, body?: unknown): Promise<Answer> {
  const response = await api(path, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const limits = (overrides: Record<string, number> = {}) => ({ calls: MAX, interviews: MAX, gps: MAX, photos: MAX, mms: MAX, rcs: MAX, sms: MAX, videos: MAX, ...overrides });
const interviews = async (): Promise<Usage> => {
  const answer = await call('GET', '/api/v1/demo/licenses', reviewer);
  expect(answer.status).toBe(200);
  return (answer.body.data as Usage[]).find((entry) => entry.service === 'interviews')!;
};
const group = `it-${run}-lic`;
const user = (name: string, services: string[]) => ({ group, services, expected_device_count: 1, email: 'lic@example.test', first_name: 'Lic', surname: name });
const onboard = (reference: string, services = ['interviews']) => call('POST', `/api/v1/demo/users/${reference}`, admin, user(reference, services));

beforeAll(async () => {
  const [a, r, s] = await Promise.all([signIn('admin@demo.test'), signIn('reviewer@demo.test'), signIn('staff@verity.test')]);
  [admin, reviewer, staff] = [a.id_token, r.id_token, s.id_token];
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  expect((await call('PUT', `/api/v1/demo/groups/${group}`, admin, { tags: [] })).status).toBe(200);
});

afterAll(async () => {
  await call('PUT', '/internal/v1/clients/demo/licenses', staff, limits());
});

describe('limits', () => {
  it('a tenant reads its limits and use for every service', async () => {
    const answer = await call('GET', '/api/v1/demo/licenses', reviewer);
    expect(answer.status).toBe(200);
    expect(answer.body.client).toBe('demo');
    expect((answer.body.data as Usage[]).map((entry) => entry.service)).toEqual(['calls', 'interviews', 'gps', 'photos', 'mms', 'rcs', 'sms', 'videos']);
  });

  it('staff set limits; bad limits are 400 path lines; tenants cannot; unknown clients are 404', async () => {
    const set = await call('PUT', '/internal/v1/clients/demo/licenses', staff, limits({ interviews: 5000 }));
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ client: 'demo', interviews: 5000, calls: MAX, updated_by: 'staff:verity-staff' });
    expect((await interviews()).limit).toBe(5000);

    for (const [body, line] of [
      [limits({ sms: MAX + 1 }), 'body.sms'],
      [limits({ gps: -1 }), 'body.gps'],
      [limits({ rcs: 1.5 }), 'body.rcs'],
      [{ ...limits(), extra: 1 }, 'body'],
      [{ calls: 1 }, 'body.interviews'],
      ['nonsense', 'body'],
    ] as const) {
      const refused = await call('PUT', '/internal/v1/clients/demo/licenses', staff, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toContain(line);
    }
    expect((await interviews()).limit).toBe(5000);
    expect([401, 403]).toContain((await call('PUT', '/internal/v1/clients/demo/licenses', admin, limits())).status);
    expect((await call('PUT', `/internal/v1/clients/nobody${run}/licenses`, staff, limits())).status).toBe(404);
  });
});

describe('use at write time and the limit', () => {
  it('onboarding beyond the limit is a 409 naming the service, raises an ops alert, and writes nothing', async () => {
    const start = await interviews();
    expect((await call('PUT', '/internal/v1/clients/demo/licenses', staff, limits({ interviews: start.used + 1 }))).status).toBe(200);

    const first = await onboard(`it-${run}-lic-a`);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await interviews()).used).toBe(start.used + 1);

    const refused = await onboard(`it-${run}-lic-b`, ['calls', 'interviews']);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`services.interviews: Licence limit of ${start.used + 1} reached for interviews`);
    expect((await call('GET', `/api/v1/demo/users/it-${run}-lic-b`, admin)).status).toBe(404);
    expect((await interviews()).used).toBe(start.used + 1);

    // Enabling the service on an existing user is refused the same way; other changes to that user still pass.
    expect((await onboard(`it-${run}-lic-c`, ['calls'])).status).toBe(201);
    const enable = await call('PUT', `/api/v1/demo/users/it-${run}-lic-c`, admin, { ...user('c', ['calls', 'interviews']), is_active: true });
    expect(enable.status).toBe(409);
    expect(enable.body.message).toContain('services.interviews: Licence limit of');

    const alerts = await call('GET', '/api/v1/demo/alerts?alert_scope=ops&alert_type=AccountAlert&limit=100', admin);
    expect(alerts.status).toBe(200);
    const alert = (alerts.body.data as Array<{ alert_subject: string; alert_state: string }>).find((entry) => entry.alert_subject === 'Licence limit reached for interviews');
    expect(alert).toMatchObject({ alert_state: 'Triggered' });

    // Removing the service from the first user frees the licence: the second onboarding now passes.
    const freed = await call('PUT', `/api/v1/demo/users/it-${run}-lic-a`, admin, { ...user('a', ['calls']), is_active: true });
    expect(freed.status).toBe(200);
    expect((await interviews()).used).toBe(start.used);
    expect((await onboard(`it-${run}-lic-b`, ['calls', 'interviews'])).status).toBe(201);
    // Offboarding gives it back, and is never refused.
    expect((await call('DELETE', `/api/v1/demo/users/it-${run}-lic-b`, admin)).status).toBe(200);
    expect((await interviews()).used).toBe(start.used);
  });

  it('racing onboardings cannot exceed the limit', async () => {
    const start = await interviews();
    expect((await call('PUT', '/internal/v1/clients/demo/licenses', staff, limits({ interviews: start.used + 1 }))).status).toBe(200);
    const answers = await Promise.all([1, 2, 3, 4].map((index) => onboard(`it-${run}-race-${index}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201).length, JSON.stringify(answers.map((answer) => answer.body.message))).toBe(1);
    expect(statuses.every((status) => status === 201 || status === 409), JSON.stringify(statuses)).toBe(true);
    const after = await interviews();
    expect(after.used).toBeLessThanOrEqual(after.limit);
    expect(after.used).toBe(start.used + statuses.filter((status) => status === 201).length);
  });
});

describe('internal console', () => {
  it('lists clients with their limits, licences and statistics, paged with a cursor', async () => {
    const clients = await call('GET', '/internal/v1/clients?limit=1', staff);
    expect(clients.status).toBe(200);
    expect(clients.body.data).toHaveLength(1);
    expect(clients.body.last_key).toEqual(expect.any(String));
    const next = await call('GET', `/internal/v1/clients?limit=100&last_key=${encodeURIComponent(String(clients.body.last_key))}`, staff);
    expect(next.status).toBe(200);
    const all = [...(clients.body.data as Array<{ client: string; limits?: Record<string, number> }>), ...(next.body.data as Array<{ client: string; limits?: Record<string, number> }>)];
    expect(all.map((entry) => entry.client)).toEqual(expect.arrayContaining(['acme', 'demo']));
    expect(all.find((entry) => entry.client === 'demo')?.limits?.calls).toBe(MAX);
    expect((await call('GET', '/internal/v1/clients?result_type=total', staff)).body.count).toBe(all.length);
    // The internal licences list pages the same account list, so a clients cursor carries over to it.
    expect((await call('GET', `/internal/v1/licenses?last_key=${encodeURIComponent(String(clients.body.last_key))}`, staff)).status).toBe(200);

    const licences = await call('GET', '/internal/v1/licenses?client=demo', staff);
    expect(licences.status).toBe(200);
    expect((licences.body.data as Array<{ client: string; data: Usage[] }>)[0]?.data.find((entry) => entry.service === 'interviews')).toEqual(await interviews());

    const statistics = await call('GET', '/internal/v1/statistics?client=demo', staff);
    expect(statistics.status).toBe(200);
    const demo = (statistics.body.data as Array<{ client: string; devices: number; device_users: number; stores: Record<string, unknown> }>)[0]!;
    expect(demo.client).toBe('demo');
    expect(demo.device_users).toBeGreaterThanOrEqual(2);
    expect(demo.stores).toHaveProperty('licences');

    expect([401, 403]).toContain((await call('GET', '/internal/v1/clients', admin)).status);
    expect((await call('GET', '/internal/v1/clients?last_key=forged.cursor', staff)).status).toBe(400);
    expect((await call('GET', '/internal/v1/statistics?client=Not%20A%20Client', staff)).status).toBe(400);
  });

  it('lists countries with the carriers seen, first and last seen, and the clients', async () => {
    const carrier = `it-${run}`;
    await recordCarrierSeen(deps, 'demo', { country_code: 98, country_name: 'Testland', carrier_code: carrier, carrier_name: 'Test Mobile', time: '2024-05-02T10:00:00Z' });
    await recordCarrierSeen(deps, 'acme', { country_code: 98, carrier_code: carrier, carrier_name: 'Test Mobile', time: '2024-05-01T09:00:00Z' });
    await recordCarrierSeen(deps, 'demo', { country_code: 98, carrier_code: carrier, carrier_name: 'Test Mobile', time: '2024-05-03T11:00:00Z' });
    await expect(recordCarrierSeen(deps, 'demo', { country_code: 100, carrier_code: 'x', carrier_name: 'x', time: '2024-05-03T11:00:00Z' })).rejects.toThrow();
    expect(await deps.table.get(keys.carrier.item(98, carrier))).toMatchObject({ first_seen: '2024-05-01T09:00:00.000Z', last_seen: '2024-05-03T11:00:00.000Z' });

    const found: Array<{ country_code: number; country_name: string; carriers: Array<Record<string, unknown>> }> = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', `/internal/v1/countries?limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`, staff);
      expect(page.status).toBe(200);
      found.push(...(page.body.data as typeof found));
      cursor = page.body.last_key as string | undefined;
    } while (cursor !== undefined);
    const country = found.find((entry) => entry.country_code === 98);
    expect(country?.country_name).toBe('Testland');
    expect(country?.carriers.find((entry) => entry.carrier_code === carrier)).toEqual({
      carrier_code: carrier,
      carrier_name: 'Test Mobile',
      first_seen: '2024-05-01T09:00:00.000Z',
      last_seen: '2024-05-03T11:00:00.000Z',
      clients: ['acme', 'demo'],
    });
  });
});
