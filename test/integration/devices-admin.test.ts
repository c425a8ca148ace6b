import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { dashboardCounterOperations, deviceCounterChanges } from '../../lambdas/metrics/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Devices (admin side) and the dashboard against the local stack as admin@demo.test. Devices are created by the
 * device-facing authentication (another part); here a fixture writes the device item and its counters the way
 * that write does: one transaction.
 */
const run = randomUUID().slice(0, 8);
const BASE = '/api/v1/demo';
let admin: string;
let reviewer: string;
let deps: Dependencies;

async function call(method: string, path: string, as = admin): Promise<{ status: number; body: Record<string, unknown> & { message?: string } }> {
  const response = await api(`${BASE}${path}`, { method, headers: bearer(as) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Test fixture: an activated device held by `user` in `group`, with a history period, counted on the dashboard. */
async function fixtureDevice(reference: string, fields: { user?: string; group?: string; app_version?: string; os_version?: string } = {}) {
  const now = new Date().toISOString();
  const device = {
    client: 'demo',
    device_reference: reference,
    ...(fields.user ? { device_user_reference: fields.user } : {}),
    ...(fields.group ? { group: fields.group } : {}),
    services: ['calls'],
    imeis: [],
    phone_numbers: [],
    is_deactivated: false,
    is_legacy: false,
    activated_at: now,
    app_version: fields.app_version ?? `it-${run}-app`,
    os_version: fields.os_version ?? `it-${run}-os`,
    install_state: 'NewInstall',
    installation_id: randomUUID(),
    updated_at: now,
    updated_by: 'fixture',
  };
  await deps.table.transactWrite([
    { kind: 'put', item: { ...keys.device.item('demo', reference, fields.user, fields.group), ...device }, condition: { kind: 'item-not-exists' } },
    {
      kind: 'put',
      item: { ...keys.device.history('demo', reference, now, randomUUID()), entity: 'DeviceHistory', from: now, ...(fields.user ? { device_user_reference: fields.user } : {}), ...(fields.group ? { group: fields.group } : {}) },
    },
    ...dashboardCounterOperations('demo', deviceCounterChanges(undefined, device)),
  ]);
}

const dashboard = async () => (await call('GET', '/dashboard')).body as {
  devices: Record<string, number>;
  app_versions: Array<{ version: string; count: number }>;
  os_versions: Array<{ version: string; count: number }>;
};
const versionCount = (list: Array<{ version: string; count: number }>, version: string) => list.find((entry) => entry.version === version)?.count ?? 0;

beforeAll(async () => {
  admin = (await signIn('admin@demo.test')).id_token;
  reviewer = (await signIn('reviewer@demo.test')).id_token;
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('devices', () => {
  const user = `it-${run}-holder`;
  const group = `it-${run}-dev-grp`;
  const one = `it-${run}-dev-1`;
  const two = `it-${run}-dev-2`;

  it('get, list by device user and group with a cursor, deactivate with counters, history', async () => {
    const start = await dashboard();
    await fixtureDevice(one, { user, group });
    await fixtureDevice(two, { user });

    const got = await call('GET', `/devices/${one}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ device_reference: one, device_user_reference: user, group, is_deactivated: false });
    expect(got.body).not.toHaveProperty('install_state');
    expect(got.body).not.toHaveProperty('pk');

    const after = await dashboard();
    expect(after.devices.activated).toBe(start.devices.activated! + 2);
    expect(versionCount(after.app_versions, `it-${run}-app`)).toBe(2);

    const seen: string[] = [];
    let lastKey: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const list = await call('GET', `/devices?device_user_reference=${user}&limit=1${lastKey ? `&last_key=${encodeURIComponent(lastKey)}` : ''}`);
      expect(list.status).toBe(200);
      seen.push(...(list.body.data as Array<{ device_reference: string }>).map((device) => device.device_reference));
      lastKey = list.body.last_key as string | undefined;
      if (!lastKey) break;
    }
    expect(seen).toEqual([one, two]);
    expect((await call('GET', `/devices?group=${group}`)).body).toMatchObject({ count: 1, data: [{ device_reference: one }] });
    expect((await call('GET', `/users/${user}/devices?result_type=total`)).body).toEqual({ count: 2 });

    // Deactivate: flag, date, and the counters move once; twice is a no-op 200.
    const deactivated = await call('DELETE', `/devices/${one}`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ is_deactivated: true, deactivation_date: expect.any(String), updated_by: 'demo-admin' });
    const again = await call('DELETE', `/devices/${one}`);
    expect(again).toMatchObject({ status: 200, body: { is_deactivated: true, deactivation_date: deactivated.body.deactivation_date } });
    const end = await dashboard();
    expect(end.devices.activated).toBe(start.devices.activated! + 1);
    expect(end.devices.deactivated).toBe(start.devices.deactivated! + 1);
    expect(versionCount(end.app_versions, `it-${run}-app`)).toBe(1);
    expect(versionCount(end.os_versions, `it-${run}-os`)).toBe(1);

    expect((await call('GET', `/devices?device_user_reference=${user}&active_only=true`)).body).toMatchObject({ data: [{ device_reference: two }] });
    expect((await call('GET', `/users/${user}/devices?active_only=true&result_type=total`)).body).toEqual({ count: 1 });

    const history = await call('GET', `/devices/${one}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ count: 1, data: [{ device_user_reference: user, group, from: expect.any(String) }] });
  });

  it('refuses unknown devices, hostile references and reviewer writes', async () => {
    expect((await call('GET', `/devices/it-${run}-none`)).status).toBe(404);
    expect((await call('DELETE', `/devices/it-${run}-none`)).status).toBe(404);
    expect((await call('GET', `/devices/it-${run}-none/history`)).status).toBe(404);
    const bad = await call('GET', `/devices/${encodeURIComponent('a:b')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('params.device_reference: Cannot start with any of " ,+#/:", cannot include ",+#/:"');
    expect((await call('GET', '/devices?limit=0')).status).toBe(400);
    expect((await call('GET', '/devices?last_key=forged')).status).toBe(400);
    expect((await call('GET', '/devices?colour=red')).status).toBe(400);

    await fixtureDevice(`it-${run}-dev-rev`);
    expect((await call('GET', `/devices/it-${run}-dev-rev`, reviewer)).status).toBe(200);
    expect((await call('DELETE', `/devices/it-${run}-dev-rev`, reviewer)).status).toBe(403);
    expect((await call('GET', `/devices/it-${run}-dev-rev`)).body).toMatchObject({ is_deactivated: false });
  });
});
