import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf, openKekForDevice, sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { sealUpload, type UploadKind } from '../../lambdas/device-crypto/envelope.ts';
import { keys } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Device uploads (logs, sealed telemetry and GPS) and their reads against the local stack: a real device enrols and
 * authenticates through the API, opens its KEK from GET /keys and seals envelopes as a phone would. Dates are in a
 * random past year so reruns and other files never meet these records in a range.
 */
const run = ulid().toLowerCase().slice(-8);
const user = `du-data-${run}`;
const group = `grp-data-${run}`;
const year = 2000 + randomInt(0, 20);
const day = (n: number, time = '10:00:00') => `${year}-03-0${n}T${time}Z`;

let deps: Dependencies;
let admin: string;
let acmeAdmin: string;
let staff: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>>; last_key?: string; count?: number };
}

async function call(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const headers = bearer(token, body === undefined ? {} : { 'content-type': 'application/json' });
  const response = await api(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const portal = (client: string, path: string, token: string) => call('GET', `/api/v1/${client}${path}`, token);
const device = (method: string, path: string, token: string, body?: unknown) => call(method, `/device/v1${path}`, token, body);

interface Phone {
  client: string;
  reference: string;
  token: string;
  keyId: string;
  kek: Buffer;
  seal(kind: UploadKind, value: unknown): ReturnType<typeof sealUpload>;
}

/** Enrols and authenticates a device through the API, then opens its KEK the way the app does. */
async function enrol(client: string, phoneNumber: string): Promise<Phone> {
  const reference = ulid();
  const sealed = await sealDeviceReference(deps, client, reference);
  const imei = String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000, 999_999));
  const auth = await call('POST', '/device/v1/authenticate', '', { ulid_encrypted: sealed, phone_numbers: [phoneNumber], imeis: [imei], installation_id: run });
  expect(auth.status).toBe(200);
  const token = auth.body.access_token as string;
  const keyAnswer = await device('GET', '/keys', token);
  expect(keyAnswer.status).toBe(200);
  const keyId = keyAnswer.body.key_id as string;
  const { enrolmentKey } = await deviceKeysOf(deps, client);
  const kek = openKekForDevice(enrolmentKey, client, keyId, keyAnswer.body.kek as string);
  return { client, reference, token, keyId, kek, seal: (kind, value) => sealUpload({ kek, client, keyId }, kind, value) };
}

let phone: Phone;
let acmePhone: Phone;

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const number = `07${String(Date.now()).slice(-9)}`;
  await deps.table.put({
    ...keys.deviceUser.item('demo', user, group),
    client: 'demo',
    device_user_reference: user,
    group,
    services: ['gps'],
    expected_device_count: 1,
    email: `${run}@demo.test`,
    first_name: 'Data',
    surname: 'Carrier',
    is_active: true,
  });
  await deps.table.put({ ...keys.phoneNumber.item('demo', number), phone_number: number, device_user_reference: user });
  [admin, acmeAdmin, staff] = (await Promise.all(['admin@demo.test', 'admin@acme.test', 'staff@verity.test'].map((email) => signIn(email)))).map(
    (tokens) => tokens.id_token,
  ) as [string, string, string];
  [phone, acmePhone] = await Promise.all([enrol('demo', number), enrol('acme', `07${String(Date.now() + 7).slice(-9)}`)]);

  const logs = await device('POST', '/logs', phone.token, {
    logs: [
      { log_level: 'INFO', log_datetime: day(1), log_message: 'started', log_class: 'App' },
      { log_level: 'ERROR', log_datetime: `${year}-03-02 11:30:00`, log_message: 'upload failed', local_timezone: 'Europe/London' },
      { log_level: 'INFO', log_datetime: day(3, '09:15:00.250'), log_message: 'recovered' },
    ],
  });
  expect(logs).toMatchObject({ status: 200, body: { accepted: 3 } });
  const track = [1, 2, 3, 4, 5].map((n) => ({ latitude: Number(`51.5${n}`), longitude: Number(`-0.1${n}`), accuracy: 5, timestamp: day(n), provider: 'gps' }));
  expect(await device('POST', '/gps', phone.token, phone.seal('gps', track))).toMatchObject({ status: 200, body: { accepted: 5 } });
  for (const battery of [80, 64]) {
    const report = { collected_at: day(5), health: { battery_level: battery, wifi_enabled: true }, telecom: { network_country: 'zz', network_country_code: 97, network_operator: `it-${phone.reference}`, network_operator_name: 'Test Mobile' }, device_user_reference: 'forged' };
    expect(await device('POST', '/telemetry', phone.token, phone.seal('telemetry', report))).toMatchObject({ status: 200, body: { ok: true } });
  }
});

describe('device uploads and reads', () => {
  it('lists one device’s logs newest first, by range and level, with the holder stamped on each line', async () => {
    const all = await portal('demo', `/devices/${phone.reference}/logs`, admin);
    expect(all.status).toBe(200);
    expect(all.body.data?.map((log) => log.log_message)).toEqual(['recovered', 'upload failed', 'started']);
    expect(all.body.data?.[1]).toMatchObject({ device_user_reference: user, group, log_level: 'ERROR', log_datetime: `${year}-03-02T11:30:00.000Z` });
    const ranged = await portal('demo', `/devices/${phone.reference}/logs?from=${year}-03-02&to=${year}-03-02`, admin);
    expect(ranged.body.data?.map((log) => log.log_message)).toEqual(['upload failed']);
    const errors = await portal('demo', `/devices/${phone.reference}/logs?log_level=ERROR`, admin);
    expect(errors.body.count).toBe(1);
    const timed = await portal('demo', `/devices/${phone.reference}/logs?from=${year}-03-03-091500&to=${year}-03-03-091500`, admin);
    expect(timed.body.data?.map((log) => log.log_message)).toEqual(['recovered']);
  });

  it('pages a device user’s logs and the tenant’s, with signed cursors bound to the list', async () => {
    const first = await portal('demo', `/users/${user}/logs?limit=2`, admin);
    expect(first.body.data).toHaveLength(2);
    expect(typeof first.body.last_key).toBe('string');
    const second = await portal('demo', `/users/${user}/logs?limit=2&last_key=${encodeURIComponent(first.body.last_key as string)}`, admin);
    expect(second.body.data?.map((log) => log.log_message)).toEqual(['started']);
    expect(second.body.last_key).toBeUndefined();
    // The cursor of one list is refused on another (here: the same user, another level filter).
    const replayed = await portal('demo', `/users/${user}/logs?limit=2&log_level=INFO&last_key=${encodeURIComponent(first.body.last_key as string)}`, admin);
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toContain('query.last_key');

    const tenant = await portal('demo', `/device_logs?from=${year}-03-01&to=${year}-03-03&limit=100`, admin);
    expect(tenant.body.data?.filter((log) => log.device_reference === phone.reference)).toHaveLength(3);
    const byGroup = await portal('demo', `/device_logs?group=${group}&result_type=total`, admin);
    expect(byGroup.body).toEqual({ count: 3 });
    const byDevice = await portal('demo', `/device_logs?device_reference=${phone.reference}&log_level=INFO`, admin);
    expect(byDevice.body.count).toBe(2);
  });

  it('lists the GPS track by device, user, group and range', async () => {
    const track = await portal('demo', `/devices/${phone.reference}/gps`, admin);
    expect(track.body.data?.map((fix) => fix.timestamp)).toEqual([5, 4, 3, 2, 1].map((n) => `${year}-03-0${n}T10:00:00.000Z`));
    expect(track.body.data?.[0]).toMatchObject({ latitude: 51.55, longitude: -0.15, provider: 'gps', device_user_reference: user, group });
    const ranged = await portal('demo', `/users/${user}/gps?from=${year}-03-02&to=${year}-03-04&limit=2`, admin);
    expect(ranged.body.data).toHaveLength(2);
    const rest = await portal('demo', `/users/${user}/gps?from=${year}-03-02&to=${year}-03-04&limit=2&last_key=${encodeURIComponent(ranged.body.last_key as string)}`, admin);
    expect(rest.body.data?.map((fix) => fix.timestamp)).toEqual([`${year}-03-02T10:00:00.000Z`]);
    expect((await portal('demo', `/gps?group=${group}&result_type=total`, admin)).body).toEqual({ count: 5 });
    expect((await portal('demo', `/gps?device_user_reference=${user}&device_reference=${phone.reference}&from=${year}-03-05`, admin)).body.count).toBe(1);
    const reversed = await portal('demo', `/gps?from=${year}-03-05&to=${year}-03-01`, admin);
    expect(reversed.status).toBe(400);
  });

  it('leaves a fix the retention job deleted out of the track and its totals', async () => {
    const stored = await deps.table.query({ ...keys.gps.byDevice('demo', phone.reference), sort: { beginsWith: 'GPS#' }, descending: true, limit: 1 });
    const newest = stored.items[0];
    expect(newest?.timestamp).toBe(`${year}-03-05T10:00:00.000Z`);
    await deps.table.update({ pk: String(newest?.pk), sk: String(newest?.sk) }, { set: { retention_state: 'Deleted', deleted_at: new Date().toISOString() } });
    const track = await portal('demo', `/devices/${phone.reference}/gps`, admin);
    expect(track.body.data?.map((fix) => fix.timestamp)).toEqual([4, 3, 2, 1].map((n) => `${year}-03-0${n}T10:00:00.000Z`));
    expect((await portal('demo', `/gps?group=${group}&result_type=total`, admin)).body).toEqual({ count: 4 });
  });

  it('keeps the latest telemetry and the history, stamps last_seen, and lists the fleet’s latest', async () => {
    const history = await portal('demo', `/devices/${phone.reference}/telemetry`, admin);
    expect(history.status).toBe(200);
    expect(history.body.data?.map((report) => (report.health as { battery_level: number }).battery_level)).toEqual([64, 80]);
    // The server sets the holder: a device's loose report cannot claim another user.
    expect(history.body.data?.[0]).toMatchObject({ device_user_reference: user, group, collected_at: `${year}-03-05T10:00:00.000Z` });
    const item = await deps.table.get(keys.device.key('demo', phone.reference), { consistent: true });
    const index = await deps.table.get(keys.device.lastSeenKey('demo', phone.reference), { consistent: true });
    // The last upload moved both the device's last_seen and the inactivity job's index past the authentication.
    expect(item?.last_seen).toBe(index?.last_seen);
    expect(String(item?.last_seen) > String(item?.activated_at)).toBe(true);

    const fleet = await portal('demo', `/telemetry?group=${group}`, admin);
    expect(fleet.body.data?.map((report) => report.device_reference)).toEqual([phone.reference]);
    expect(fleet.body.data?.[0]).toMatchObject({ health: { battery_level: 64 } });

    const staffOne = await call('GET', '/internal/v1/clients/demo/telemetry?limit=100', staff);
    expect(staffOne.status).toBe(200);
    const query = await call('GET', '/internal/v1/telemetry?client=acme&limit=100', staff);
    expect(query.status).toBe(200);
    expect(query.body.data?.every((report) => report.client === 'acme')).toBe(true);
    // Across clients, paging on until both test devices are seen (bounded).
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const answer = await call('GET', `/internal/v1/telemetry?limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`, staff);
      expect(answer.status).toBe(200);
      for (const report of answer.body.data ?? []) seen.add(String(report.device_reference));
      cursor = answer.body.last_key;
      if (cursor === undefined) break;
    }
    expect(seen.has(phone.reference)).toBe(true);
    expect((await call('GET', '/internal/v1/telemetry', admin)).status).toBe(403);
  });

  it('records the serving network of a telemetry report as a carrier sighting for the internal countries list', async () => {
    const countries: Array<{ country_code: number; carriers: Array<Record<string, unknown>> }> = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', `/internal/v1/countries?limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`, staff);
      expect(page.status).toBe(200);
      countries.push(...((page.body.data ?? []) as unknown as typeof countries));
      cursor = page.body.last_key;
    } while (cursor !== undefined);
    const carrier = countries.find((country) => country.country_code === 97)?.carriers.find((entry) => entry.carrier_code === `it-${phone.reference}`);
    expect(carrier).toMatchObject({ carrier_name: 'Test Mobile', first_seen: `${year}-03-05T10:00:00.000Z`, last_seen: `${year}-03-05T10:00:00.000Z` });
    expect(carrier?.clients).toContain('demo');
  });
});

describe('hostile uploads', () => {
  it('refuses tampered envelopes, foreign or unknown key ids and bad sealed content with 400 path lines', async () => {
    const good = phone.seal('telemetry', { collected_at: day(6) });
    const flipped = Buffer.from(good.meta, 'base64');
    flipped[0] = (flipped[0] as number) ^ 1;
    const cases: Array<[unknown, string]> = [
      [{ ...good, meta: flipped.toString('base64') }, 'body.meta'],
      [{ ...good, key_id: `kek/demo/${ulid()}` }, 'body.key_id'],
      [{ ...good, key_id: acmePhone.keyId }, 'body.key_id'],
      [{ ...good, encrypted_dek: phone.seal('telemetry', {}).encrypted_dek }, 'body.meta'],
      [{ ...good, iv: Buffer.alloc(8).toString('base64') }, 'body.iv'],
      [phone.seal('gps', { collected_at: day(6) }), 'body.meta'],
      [phone.seal('telemetry', { collected_at: 'yesterday' }), 'meta.collected_at'],
      [phone.seal('telemetry', { collected_at: day(6), health: { battery_level: 140 } }), 'meta.health.battery_level'],
      [phone.seal('telemetry', { collected_at: day(6), deep: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }), 'meta'],
      [sealUpload({ kek: acmePhone.kek, client: 'acme', keyId: acmePhone.keyId }, 'telemetry', { collected_at: day(6) }), 'body.key_id'],
      [{ ...good, meta: 'not base64!' }, 'body.meta'],
    ];
    for (const [body, path] of cases) {
      const answer = await device('POST', '/telemetry', phone.token, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.message).toContain(`${path}`);
    }
    const badFix = await device('POST', '/gps', phone.token, phone.seal('gps', [{ latitude: 200, longitude: 0, timestamp: day(1) }, { latitude: 1, longitude: 1, timestamp: 'later' }]));
    expect(badFix.status).toBe(400);
    expect(badFix.body.message).toContain('meta.0.latitude');
    expect((await device('POST', '/gps', phone.token, phone.seal('gps', []))).status).toBe(400);
    expect((await device('POST', '/gps', phone.token, phone.seal('gps', { pk: 'C#acme#DEVICE_GPS' }))).status).toBe(400);
    expect((await device('POST', '/logs', phone.token, { logs: [] })).body.message).toContain('body.logs');
    const hugeLine = await device('POST', '/logs', phone.token, { logs: [{ log_level: 'INFO', log_datetime: day(1), log_message: 'x'.repeat(40_000) }] });
    expect(hugeLine.status).toBe(400);
    expect(hugeLine.body.message).toContain('body.logs.0.log_message');
    // Nothing of the refused uploads was stored.
    expect((await portal('demo', `/devices/${phone.reference}/telemetry`, admin)).body.count).toBe(2);
  });

  it('keeps tenants apart: an acme device writes to acme only and no device token reads portal data', async () => {
    expect(await device('POST', '/logs', acmePhone.token, { logs: [{ log_level: 'WARN', log_datetime: day(4), log_message: `acme ${run}` }] })).toMatchObject({ status: 200 });
    const acmeLogs = await portal('acme', `/devices/${acmePhone.reference}/logs`, acmeAdmin);
    expect(acmeLogs.body.data?.map((log) => log.log_message)).toEqual([`acme ${run}`]);
    // Demo's lists never hold acme's lines: acme's device is no device of demo's (404), and demo's list leaves it out.
    const elsewhere = await portal('demo', `/devices/${acmePhone.reference}/logs`, admin);
    expect({ status: elsewhere.status, message: elsewhere.body.message }).toEqual({ status: 404, message: 'Device not found' });
    expect((await portal('demo', `/device_logs?from=${year}-03-04&to=${year}-03-04&limit=100`, admin)).body.data?.some((log) => log.device_reference === acmePhone.reference)).toBe(false);
    // Acme's admin cannot read demo's; a device token is no portal credential.
    expect((await portal('demo', `/devices/${phone.reference}/logs`, acmeAdmin)).status).toBe(403);
    expect([401, 403]).toContain((await portal('demo', `/devices/${phone.reference}/gps`, phone.token)).status);
    expect([401, 403]).toContain((await portal('acme', `/devices/${acmePhone.reference}/logs`, acmePhone.token)).status);
  });

  it('lists the device’s calls in device_activities, refusals included', async () => {
    const calls = await portal('demo', `/device_activities?device_reference=${phone.reference}&limit=100`, admin);
    expect(calls.status).toBe(200);
    const actions = new Set(calls.body.data?.map((entry) => entry.action));
    for (const action of ['device:Authenticate', 'device:GetKeys', 'device:UploadLogs', 'device:UploadGps', 'device:UploadTelemetry']) expect(actions.has(action)).toBe(true);
    const refused = await portal('demo', `/device_activities?device_reference=${phone.reference}&is_allowed=false&limit=100`, admin);
    expect(refused.body.data?.length).toBeGreaterThan(0);
    expect(refused.body.data?.every((entry) => entry.is_allowed === false && entry.status_code === 400)).toBe(true);
    const tenant = await portal('demo', `/device_activities?device_user_reference=${user}&action=x`, admin);
    expect(tenant.status).toBe(400);
    const paged = await portal('demo', `/device_activities?device_reference=${phone.reference}&limit=1`, admin);
    expect(paged.body.data).toHaveLength(1);
    const next = await portal('demo', `/device_activities?device_reference=${phone.reference}&limit=1&last_key=${encodeURIComponent(paged.body.last_key as string)}`, admin);
    expect(next.body.data?.[0]?.log_id).not.toBe(paged.body.data?.[0]?.log_id);
  });
});
