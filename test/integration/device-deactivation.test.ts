import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { buildDependencies } from '#core/composition.ts';
import { ConfigError, loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { statsAttribute } from '../../lambdas/metrics/group-stats.ts';
import { keys } from '#core/store/keys.ts';
import { runJob } from '../../lambdas/jobs/jobs.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The inactivity job and the admin DELETE against the local stack: both write the same transaction (device, dashboard,
 * group actual_devices never below zero, last-seen index). The job runs on a clock in 2001 and the fixtures' last_seen
 * is set in 2001, so no other file's device (all seen now) is ever a candidate.
 */
const run = randomUUID().slice(0, 8);
const group = `it-${run}-inact`;
const user = `it-${run}-inact-user`;
const number = `06${String(Date.now()).slice(-9)}`;
const JOB_NOW = '2001-03-01T00:00:00.000Z';
let deps: Dependencies;
let admin: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
}

async function call(path: string, method: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await api(path, { method, headers: token === undefined ? headers : bearer(token, headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const portal = (method: string, path: string, body?: unknown) => call(`/api/v1/demo${path}`, method, admin, body);
const actualDevices = async () => ((await portal('GET', `/groups/${group}`)).body.stats as { actual_devices: number }).actual_devices;
const deviceItem = (reference: string) => deps.table.get(keys.device.key('demo', reference), { consistent: true });
const lastSeenItem = (reference: string) => deps.table.get(keys.device.lastSeenKey('demo', reference), { consistent: true });

/** Enrols a device held by this file's device user (so it joins the group), answering reference, envelope and token. */
async function enrol() {
  const reference = ulid();
  const sealed = await sealDeviceReference(deps, 'demo', reference);
  const imei = String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)).slice(0, 15);
  const authenticate = () => call('/device/v1/authenticate', 'POST', undefined, { ulid_encrypted: sealed, phone_numbers: [number], imeis: [imei], installation_id: 'inst' });
  const answer = await authenticate();
  expect(answer.status, answer.body.message).toBe(200);
  return { reference, token: answer.body.access_token as string, authenticate };
}

/** Test fixture: the device was last seen at `when` (device item and its last-seen index item, as authentication writes them). */
async function seenAt(reference: string, when: string, indexOnly = false) {
  if (!indexOnly) await deps.table.update(keys.device.key('demo', reference), { set: { last_seen: when } });
  await deps.table.put({ ...keys.device.lastSeen('demo', reference, when), client: 'demo', device_reference: reference, last_seen: when });
}

function jobDependencies(days?: string) {
  return buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error', ...(days === undefined ? {} : { DEVICE_INACTIVITY_DAYS: days }) }), {
    clock: createFixedClock(JOB_NOW),
  });
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  admin = (await signIn('admin@demo.test')).id_token;
  expect((await portal('PUT', `/groups/${group}`, { tags: [] })).status).toBe(200);
  const onboarded = await portal('POST', `/users/${user}`, { group, services: ['calls'], expected_device_count: 3, email: 'idle@demo.test', first_name: 'Idle', surname: 'Phone' });
  expect(onboarded.status).toBe(201);
  // What device-user administration or a migration records: the number that names the user.
  await deps.table.put({ ...keys.phoneNumber.item('demo', number), phone_number: number, device_user_reference: user });
});

describe('device inactivity job', () => {
  it('deactivates devices last seen before the threshold (default 30 days) with counters, group stats and index; re-authentication counts them anew', async () => {
    const idle = await enrol();
    const recent = await enrol();
    const stale = await enrol();
    expect(await actualDevices()).toBe(3);
    expect(await lastSeenItem(idle.reference)).toMatchObject({ device_reference: idle.reference });
    const dashboardBefore = (await portal('GET', '/dashboard')).body.devices as Record<string, number>;

    await seenAt(idle.reference, '2001-01-01T00:00:00.000Z'); // 59 days before the job's now: deactivated
    await seenAt(recent.reference, '2001-02-20T00:00:00.000Z'); // 9 days: kept
    await seenAt(stale.reference, '2001-01-02T00:00:00.000Z', true); // the index lags: the device itself was seen now

    const report = await runJob(jobDependencies(), 'device-deactivation');
    expect(report).toMatchObject({ threshold: '2001-01-30T00:00:00.000Z', failed: 0 });
    expect(report.deactivated).toBeGreaterThanOrEqual(1);
    expect(report.seen).toBeGreaterThanOrEqual(1);
    expect(report.clients).toBeGreaterThanOrEqual(2);

    expect(await deviceItem(idle.reference)).toMatchObject({ is_deactivated: true, deactivation_date: JOB_NOW, updated_by: 'job:device-deactivation' });
    expect(await lastSeenItem(idle.reference)).toBeUndefined();
    expect(await deviceItem(recent.reference)).toMatchObject({ is_deactivated: false });
    expect(await deviceItem(stale.reference)).toMatchObject({ is_deactivated: false });
    expect(await actualDevices()).toBe(2);
    const dashboardAfter = (await portal('GET', '/dashboard')).body.devices as Record<string, number>;
    expect(dashboardAfter.deactivated).toBeGreaterThanOrEqual((dashboardBefore.deactivated ?? 0) + 1);

    // Run again: nothing of ours moves twice.
    await runJob(jobDependencies(), 'device-deactivation');
    expect(await actualDevices()).toBe(2);
    // A longer configured threshold keeps even the 2001-02-20 device.
    await runJob(jobDependencies('3650'), 'device-deactivation');
    expect(await deviceItem(recent.reference)).toMatchObject({ is_deactivated: false });

    // The deactivated device's token is refused; re-authentication re-activates it and counts it in its group again.
    expect((await call('/device/v1/keys', 'GET', idle.token)).status).toBe(401);
    expect((await idle.authenticate()).status).toBe(200);
    expect(await deviceItem(idle.reference)).toMatchObject({ is_deactivated: false });
    expect(await lastSeenItem(idle.reference)).toMatchObject({ device_reference: idle.reference });
    expect(await actualDevices()).toBe(3);
  });

  it('the admin DELETE writes the same transaction, and never takes actual_devices below zero', async () => {
    const one = await enrol();
    const two = await enrol();
    const before = await actualDevices();
    const deleted = await portal('DELETE', `/devices/${one.reference}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ is_deactivated: true, device_reference: one.reference });
    expect(await lastSeenItem(one.reference)).toBeUndefined();
    expect(await actualDevices()).toBe(before - 1);
    expect((await portal('DELETE', `/devices/${one.reference}`)).status).toBe(200);
    expect(await actualDevices()).toBe(before - 1);

    // Counter already 0 (drifted, or a legacy import): the deactivation still happens, the counter stays 0.
    const { pk, sk } = keys.group.item('demo', group);
    await deps.table.update({ pk, sk }, { set: { [statsAttribute('actual_devices')]: 0 } });
    expect((await portal('DELETE', `/devices/${two.reference}`)).status).toBe(200);
    expect(await deviceItem(two.reference)).toMatchObject({ is_deactivated: true });
    expect(await actualDevices()).toBe(0);
  });

  it('refuses a bad DEVICE_INACTIVITY_DAYS at configuration load, naming it', () => {
    for (const bad of ['0', '-3', 'soon', '1.5', '100000']) {
      expect(() => loadConfig({ ...stack().env, DEVICE_INACTIVITY_DAYS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...stack().env, DEVICE_INACTIVITY_DAYS: bad }), bad).toThrow(/DEVICE_INACTIVITY_DAYS/);
    }
    expect(loadConfig({ ...stack().env }).DEVICE_INACTIVITY_DAYS).toBe(30);
  });
});
