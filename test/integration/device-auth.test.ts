import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf, openKekForDevice, sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { keys } from '#core/store/keys.ts';
import { readDashboard } from '../../lambdas/metrics/dashboard-counters.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The device-facing API's authentication against the real local stack: enrolment envelopes, install states,
 * re-activation, device-token scope and device activity. Each test uses fresh ULIDs and IMEIs, so reruns never meet.
 */
let deps: Dependencies;
const userReference = `du-${ulid().toLowerCase()}`;
const userNumber = `07${String(Date.now()).slice(-9)}`;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await api(`/device/v1${path}`, {
    method,
    headers: token === undefined ? headers : bearer(token, headers),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}

const imei = () => String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)).slice(0, 15);

async function authenticate(sealed: string, extra: Record<string, unknown> = {}, phone = userNumber) {
  return call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [phone], imeis: [imei()], ...extra });
}

async function deviceItem(client: string, reference: string) {
  const { pk, sk } = keys.device.item(client, reference);
  return deps.table.get({ pk, sk }, { consistent: true });
}

async function deactivate(client: string, reference: string) {
  const { pk, sk } = keys.device.item(client, reference);
  await deps.table.update({ pk, sk }, { set: { is_deactivated: true, deactivation_date: new Date().toISOString(), is_legacy: true } });
}

async function dashboard(client: string) {
  return readDashboard(await deps.table.get(keys.device.dashboardCounters(client), { consistent: true }));
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  // A device user of demo, and the number that names it (what the device-user admin or a migration records).
  await deps.table.put({
    ...keys.deviceUser.item('demo', userReference),
    client: 'demo',
    device_user_reference: userReference,
    services: ['calls', 'sms'],
    expected_device_count: 1,
    email: 'carrier@demo.test',
    first_name: 'Carrie',
    surname: 'Phone',
    is_active: true,
  });
  await deps.table.put({ ...keys.phoneNumber.item('demo', userNumber), phone_number: userNumber, device_user_reference: userReference });
});

describe('device authentication', () => {
  it('walks NewInstall → NoChange → FactoryReset → NoInstallationId, resolving the device user by phone number', async () => {
    const reference = ulid();
    const sealed = await sealDeviceReference(deps, 'demo', reference);
    const phone = imei();
    const before = await dashboard('demo');

    const first = await call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [userNumber], imeis: [phone], installation_id: 'inst-1', app_version: '9.9.1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ install_state: 'NewInstall', account_reference: 'demo', enabled_services: ['calls', 'sms'] });
    expect(typeof first.body.access_token).toBe('string');
    const created = await deviceItem('demo', reference);
    expect(created).toMatchObject({ device_user_reference: userReference, is_deactivated: false, is_legacy: false, installation_id: 'inst-1', imeis: [phone] });
    const afterFirst = await dashboard('demo');
    // Other test files may move demo's counters meanwhile: at least this device was counted.
    expect(afterFirst.devices.activated).toBeGreaterThanOrEqual(before.devices.activated + 1);

    const same = await call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [userNumber], imeis: [phone], installation_id: 'inst-1' });
    expect(same.body.install_state).toBe('NoChange');
    const reset = await call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [userNumber], imeis: [phone], installation_id: 'inst-2' });
    expect(reset.body.install_state).toBe('FactoryReset');
    const other = await call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [userNumber], imeis: [imei()], installation_id: 'inst-3' });
    expect(other.body.install_state).toBe('NewInstall');
    const none = await call('POST', '/authenticate', { ulid_encrypted: sealed, phone_numbers: [userNumber], imeis: [phone] });
    expect(none.body.install_state).toBe('NoInstallationId');
  });

  it('re-activates a deactivated (legacy) device: activated_at moves, flags clear, the old token stays refused', async () => {
    const reference = ulid();
    const sealed = await sealDeviceReference(deps, 'demo', reference);
    const first = await authenticate(sealed);
    const oldToken = first.body.access_token as string;
    expect((await call('GET', '/keys', undefined, oldToken)).status).toBe(200);
    const activatedAt = (await deviceItem('demo', reference))?.activated_at as string;

    await deactivate('demo', reference);
    const refused = await call('GET', '/keys', undefined, oldToken);
    expect(refused.status).toBe(401);

    const again = await authenticate(sealed);
    expect(again.status).toBe(200);
    const item = await deviceItem('demo', reference);
    expect(item).toMatchObject({ is_deactivated: false, is_legacy: false });
    expect(item?.deactivation_date).toBeUndefined();
    expect(item?.activated_at as string > activatedAt).toBe(true);
    // The token from before the deactivation belongs to a past activation: still refused; the new one works.
    expect((await call('GET', '/keys', undefined, oldToken)).status).toBe(401);
    expect((await call('GET', '/keys', undefined, again.body.access_token as string)).status).toBe(200);
  });

  it('refuses tampered, re-labelled and garbage envelopes with the same 401', async () => {
    const sealed = await sealDeviceReference(deps, 'demo', ulid());
    const bytes = Buffer.from(sealed, 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    const relabelled = Buffer.from(sealed, 'base64');
    relabelled.write('acme', 2, 'ascii');
    for (const envelope of [bytes.toString('base64'), relabelled.toString('base64'), 'AAAA', Buffer.from('x'.repeat(80)).toString('base64')]) {
      const answer = await authenticate(envelope);
      expect(answer.status).toBe(401);
      expect(answer.body.message).toContain('Device credentials are invalid');
    }
    const bad = await call('POST', '/authenticate', { ulid_encrypted: 'not base64!', phone_numbers: [], imeis: ['12'] });
    expect(bad.status).toBe(400);
  });

  it('scopes a token to one device of one tenant, and refuses forged or altered tokens', async () => {
    const sealedDemo = await sealDeviceReference(deps, 'demo', ulid());
    const sealedAcme = await sealDeviceReference(deps, 'acme', ulid());
    const demo = (await authenticate(sealedDemo)).body;
    const acme = (await authenticate(sealedAcme, {}, `08${String(Date.now()).slice(-9)}`)).body;
    expect(acme.account_reference).toBe('acme');
    expect(acme.enabled_services).toEqual([]);

    // The KEK each device receives is its own tenant's, sealed for the tenant's enrolment key.
    const demoKeys = (await call('GET', '/keys', undefined, demo.access_token as string)).body;
    const acmeKeys = (await call('GET', '/keys', undefined, acme.access_token as string)).body;
    expect(demoKeys.key_id).toMatch(/^kek\/demo\//);
    expect(acmeKeys.key_id).toMatch(/^kek\/acme\//);
    const demoStored = await deviceKeysOf(deps, 'demo');
    expect(openKekForDevice(demoStored.enrolmentKey, 'demo', demoKeys.key_id as string, demoKeys.kek as string).equals(demoStored.kek)).toBe(true);
    expect(() => openKekForDevice(demoStored.enrolmentKey, 'acme', acmeKeys.key_id as string, acmeKeys.kek as string)).toThrow();

    // Claims moved to another device or tenant break the signature.
    const [prefix, body, signature] = (demo.access_token as string).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    for (const forged of [{ ...claims, c: 'acme' }, { ...claims, d: ulid() }, { ...claims, exp: (claims.exp as number) + 86_400 }]) {
      const token = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      expect((await call('GET', '/keys', undefined, token)).status).toBe(401);
    }
    expect((await call('GET', '/keys', undefined, 'dt1.e30.AAAA')).status).toBe(401);
    expect((await call('GET', '/keys')).status).toBe(401);
  });

  it('raises a device alert, and records every device call (allowed and refused) as DeviceActivity', async () => {
    const reference = ulid();
    const sealed = await sealDeviceReference(deps, 'demo', reference);
    const token = (await authenticate(sealed)).body.access_token as string;
    const raised = await call('POST', '/alerts', { subject: 'Battery low', message: 'at 4%', severity: 'Low' }, token);
    expect(raised.status).toBe(200);
    const alert = await deps.table.get(keys.alert.key('demo', raised.body.alert_reference as string), { consistent: true });
    expect(alert).toMatchObject({ alert_type: 'DeviceAlert', alert_scope: 'ops', alert_subject: 'Battery low', alert_key: reference });
    expect((await call('POST', '/alerts', { subject: '', message: 'x', severity: 'Nope' }, token)).status).toBe(400);
    expect((await call('GET', '/commands', undefined, token)).status).toBe(200);
    await deactivate('demo', reference);
    expect((await call('GET', '/keys', undefined, token)).status).toBe(401);

    const page = await deps.table.query({ ...keys.deviceActivity.listByDevice('demo', reference), consistent: false });
    const rows = page.items.map((item) => [item.action, item.status_code, item.is_allowed, item.device_user_reference]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['device:Authenticate', 200, true, userReference],
        ['device:RaiseAlert', 200, true, userReference],
        ['device:PollCommands', 200, true, userReference],
        ['device:GetKeys', 401, false, undefined],
      ]),
    );
    const refused = page.items.find((item) => item.status_code === 401);
    expect(refused?.denial_reason).toContain('deactivated');
  });
});
