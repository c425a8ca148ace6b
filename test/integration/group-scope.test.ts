import { randomInt } from 'node:crypto';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf, openKekForDevice, sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { sealUpload, type UploadKind } from '../../lambdas/device-crypto/envelope.ts';
import { recordPayloadMetric } from '../../lambdas/metrics/record-payload-metric.ts';
import { keys } from '#core/store/keys.ts';
import { threadIndexKeys } from '#core/store/entities/payload.ts';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { signIn } from './support/sign-in.ts';
import { api, stack } from './support/stack.ts';

/**
 * Group scope on every endpoint that touches a device, a device user or their data, driven by the registry (as the
 * tenant isolation test is), so an endpoint added later fails here until it says how its group scope is checked.
 *
 * In tenant `acme`, this run makes three groups (L, the role's own; C and M, others), a device user and an enrolled
 * phone in L and in C (each phone uploads logs, GPS and telemetry through the device API; its calls are device
 * activities), commands to both phones, a payload of each with a comment, and payload metrics. A role allowing `*`
 * only where the group name is L is granted to staff through support mode (the real path: staff ask, the tenant's
 * admin approves). Acting with it, every list, total and filter shows only L's records; every single device or device
 * user of C answers exactly as a missing one (same status, same body); writes reach only L; payloads of C are refused
 * with the status the spec names (GroupNotAuthorised).
 *
 * Then every kind of condition (by name, tag key, tag value, excluding, denying, and their combinations), each role a
 * portal user of its own: lists, totals, single objects and writes show exactly the role's groups, counted against
 * what the tenant's admin sees. A third phone, in M now, recorded while it had no group and while it was in C: logs,
 * telemetry, GPS and device activity take their group from their device, so its device's group NOW decides.
 */
const CLIENT = 'acme';
const run = ulid().toLowerCase().slice(-8);
const L = `lon-${run}`;
const C = `cmp-${run}`;
const M = `mfx-${run}`;
type Group = typeof L;
const userL = `du-l-${run}`;
const userC = `du-c-${run}`;
const userM = `du-m-${run}`;
/** A tag key of this run's own: L carries it with value v1, M with v2, C not at all. */
const K = `scope-${run}`;
const missingDevice = ulid();
const missingUser = `du-none-${run}`;
const year = 1980 + randomInt(0, 15);
const day = (n: number) => `${year}-06-0${n}T10:00:00Z`;

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>>; count?: number; last_key?: string };
}

let deps: Dependencies;
let acmeAdmin: string;
let staff: string;
/** The Authorization value of the group-limited role: staff in support mode. */
let scoped: string;

async function send(method: string, path: string, authorization: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await api(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, text, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const asAdmin = (method: string, path: string, body?: unknown) => send(method, `/api/v1/${CLIENT}${path}`, `Bearer ${acmeAdmin}`, body);
const asScoped = (method: string, path: string, body?: unknown) => send(method, `/api/v1/${CLIENT}${path}`, scoped, body);
const get = (path: string) => asScoped('GET', path);

interface Phone {
  reference: string;
  token: string;
  seal(kind: UploadKind, value: unknown): ReturnType<typeof sealUpload>;
  /** Authenticates again, as a phone does: the device then takes its user's group now. */
  reauthenticate(): Promise<void>;
}

async function enrol(phoneNumber: string): Promise<Phone> {
  const reference = ulid();
  const sealed = await sealDeviceReference(deps, CLIENT, reference);
  const imei = String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000, 999_999));
  const authenticate = async () => {
    const auth = await send('POST', '/device/v1/authenticate', '', { ulid_encrypted: sealed, phone_numbers: [phoneNumber], imeis: [imei], installation_id: run });
    expect(auth.status, auth.text).toBe(200);
    return auth.body.access_token as string;
  };
  const token = await authenticate();
  const keyAnswer = await send('GET', '/device/v1/keys', `Bearer ${token}`);
  const keyId = keyAnswer.body.key_id as string;
  const kek = openKekForDevice((await deviceKeysOf(deps, CLIENT)).enrolmentKey, CLIENT, keyId, keyAnswer.body.kek as string);
  const phone: Phone = {
    reference,
    token,
    seal: (kind, value) => sealUpload({ kek, client: CLIENT, keyId }, kind, value),
    reauthenticate: async () => {
      phone.token = await authenticate();
    },
  };
  return phone;
}

let phoneL: Phone;
let phoneC: Phone;
/** In M now; recorded while it had no group, then while it was in C. */
let phoneM: Phone;
const payloadL = `${ulid()}L`;
const payloadC = `${ulid()}C`;
const payloadM = `${ulid()}M`;
const commentOn: Record<string, string> = {};

async function deviceUser(reference: string, group: string, phoneNumber: string) {
  const created = await asAdmin('POST', `/users/${reference}`, { group, services: ['calls', 'sms', 'gps'], expected_device_count: 1, email: `${reference}@acme.test`, first_name: 'Scope', surname: group });
  expect(created.status, created.text).toBe(201);
  await deps.table.put({ ...keys.phoneNumber.item(CLIENT, phoneNumber), phone_number: phoneNumber, device_user_reference: reference });
}

/** A log line, a GPS fix and a telemetry report of the phone (its `n`th day). */
async function uploads(phone: Phone, n = 1) {
  const token = `Bearer ${phone.token}`;
  const logs = await send('POST', '/device/v1/logs', token, { logs: [{ log_level: 'INFO', log_datetime: day(n), log_message: `log of ${phone.reference}` }] });
  expect(logs.status, logs.text).toBe(200);
  const gps = await send('POST', '/device/v1/gps', token, phone.seal('gps', [{ latitude: 51.5, longitude: -0.1, accuracy: 5, timestamp: day(n + 1), provider: 'gps' }]));
  expect(gps.status, gps.text).toBe(200);
  const telemetry = await send('POST', '/device/v1/telemetry', token, phone.seal('telemetry', { collected_at: day(n + 2), health: { battery_level: 70 } }));
  expect(telemetry.status, telemetry.text).toBe(200);
}

/**
 * A phone that moved, as the demo fleet's do: its user is placed in no group (as the demo fleet is before its groups
 * exist) and it records; its user moves to `via`, it authenticates again and records; its user moves to `to` and it
 * authenticates again. Its records keep the group they were written with (none, `via`); its device is in `to` now.
 */
async function movedPhone(phoneNumber: string, user: string, via: Group, to: Group): Promise<Phone> {
  const fields = { services: ['calls', 'sms', 'gps'], expected_device_count: 1, email: `${user}@acme.test`, first_name: 'Moved', surname: 'Phone' };
  await deps.table.put({ ...keys.deviceUser.item(CLIENT, user), client: CLIENT, device_user_reference: user, ...fields, is_active: true });
  await deps.table.put({ ...keys.phoneNumber.item(CLIENT, phoneNumber), phone_number: phoneNumber, device_user_reference: user });
  const phone = await enrol(phoneNumber);
  await uploads(phone, 1);
  for (const [group, record] of [[via, true], [to, false]] as const) {
    const moved = await asAdmin('PUT', `/users/${user}`, { group, ...fields, is_active: true });
    expect(moved.status, moved.text).toBe(200);
    await phone.reauthenticate();
    if (record) await uploads(phone, 4);
  }
  expect((await asAdmin('GET', `/devices/${phone.reference}`)).body.group).toBe(to);
  return phone;
}

async function deviceData(phone: Phone) {
  const token = `Bearer ${phone.token}`;
  const logs = await send('POST', '/device/v1/logs', token, { logs: [{ log_level: 'INFO', log_datetime: day(1), log_message: `log of ${phone.reference}` }] });
  expect(logs.status, logs.text).toBe(200);
  const gps = await send('POST', '/device/v1/gps', token, phone.seal('gps', [{ latitude: 51.5, longitude: -0.1, accuracy: 5, timestamp: day(2), provider: 'gps' }]));
  expect(gps.status, gps.text).toBe(200);
  const report = { collected_at: day(3), health: { battery_level: 70, wifi_enabled: true } };
  const telemetry = await send('POST', '/device/v1/telemetry', token, phone.seal('telemetry', report));
  expect(telemetry.status, telemetry.text).toBe(200);
  const command = await asAdmin('POST', `/devices/${phone.reference}/commands`, { command: 'sync_data' });
  expect(command.status, command.text).toBe(201);
}

/** A holding period of the device (no API writes history yet: a fixture, as in devices-admin.test.ts). */
async function period(phone: Phone, user: string, group: string, from: string) {
  await deps.table.put({ ...keys.device.history(CLIENT, phone.reference, from, ulid()), entity: 'DeviceHistory', from, device_user_reference: user, group });
}

async function payload(reference: string, phone: Phone, user: string, group: string) {
  const time = day(4);
  await deps.table.put({
    ...keys.payload.item(CLIENT, { payloadReference: reference, payloadTime: time, deviceReference: phone.reference, deviceUserReference: user }),
    // A message of thread t1, on its thread's index as processing leaves it (the demo tenant's threads are indexed).
    ...threadIndexKeys(CLIENT, { payload_reference: reference, payload_type: 'SMS', device_reference: phone.reference, thread_id: 't1', payload_time: time }),
    client: CLIENT,
    device_reference: phone.reference,
    device_user_reference: user,
    group,
    payload_reference: reference,
    payload_type: 'SMS',
    payload_state: 'Processed',
    thread_id: 't1',
    payload_time: time,
    uploaded_at: time,
    processed_at: time,
    updated_at: time,
    is_late: false,
    is_legacy: false,
  });
  await recordPayloadMetric(deps, CLIENT, { device_reference: phone.reference, payload_type: 'SMS', time, group });
  const comment = await asAdmin('POST', `/payloads/${reference}/comments`, { message: `comment on ${group}` });
  expect(comment.status, comment.text).toBe(200);
  commentOn[reference] = String(comment.body.comment_id);
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  [acmeAdmin, staff] = (await Promise.all(['admin@acme.test', 'staff@verity.test'].map((email) => signIn(email)))).map((tokens) => tokens.id_token) as [string, string];
  const tag = await asAdmin('PUT', `/tags/${K}`, { tag_values: null, description: 'Group scope test tag' });
  expect(tag.status, tag.text).toBe(200);
  const tagsOf: Record<string, Array<{ tag_key: string; tag_value: string }>> = { [L]: [{ tag_key: K, tag_value: 'v1' }], [C]: [], [M]: [{ tag_key: K, tag_value: 'v2' }] };
  for (const group of [L, C, M]) {
    const put = await asAdmin('PUT', `/groups/${group}`, { tags: tagsOf[group] });
    expect(put.status, put.text).toBe(200);
  }
  const numbers = [1, 2, 3].map((n) => `07${String(Date.now() + n).slice(-9)}`) as [string, string, string];
  await deviceUser(userL, L, numbers[0]);
  // C's phone recorded with no group and in M before it came to C; M's with no group and in C before it came to M.
  [phoneL, phoneC, phoneM] = await Promise.all([enrol(numbers[0]), movedPhone(numbers[1], userC, M, C), movedPhone(numbers[2], userM, C, M)]);
  await Promise.all([deviceData(phoneL), deviceData(phoneC), deviceData(phoneM)]);
  await period(phoneL, userC, C, day(1)); // earlier, in another group: hidden from the role
  await period(phoneL, userL, L, day(2));
  await period(phoneC, userC, C, day(2));
  await payload(payloadL, phoneL, userL, L);
  await payload(payloadC, phoneC, userC, C);
  await payload(payloadM, phoneM, userM, M);

  // The group-limited role, granted to staff through support mode.
  const role = `only-${run}`;
  const put = await asAdmin('PUT', `/roles/${role}`, {
    permissions: [{ actions_matching: '*', conditions: [{ names_matching: L }] }],
    alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
    description: 'One group only',
  });
  expect(put.status, put.text).toBe(200);
  const expiry = new Date(Date.now() + 86_400_000).toISOString();
  const asked = await send('POST', `/internal/v1/clients/${CLIENT}/supportaccess`, `Bearer ${staff}`, {
    role,
    request_description: 'Group scope check',
    requested_expiry: expiry,
  });
  expect(asked.status, asked.text).toBe(201);
  const reference = String(asked.body.request_reference);
  const approved = await asAdmin('PUT', `/supportaccess/${reference}`, { approval_state: 'approved', approval_expiry: expiry });
  expect(approved.status, approved.text).toBe(200);
  scoped = `internal-${reference} ${staff}`;
}, 120_000);

// ---------------------------------------------------------------------------------------------------------------
// How each endpoint's scope is checked.

/** The `group` (or, where records carry none, the device) of each listed item. */
const groupsOf = (answer: Answer) => (answer.body.data ?? []).map((item) => item.group);
const devicesOf = (answer: Answer) => (answer.body.data ?? []).map((item) => item.device_reference);

/** A list of the scoped role: answered, non-empty, only group L's records; `group=C` (and a total of it) is empty. */
async function onlyOwnGroup(path: string, options: { filterable?: boolean; totals?: boolean } = {}) {
  const separator = path.includes('?') ? '&' : '?';
  const page = await get(path);
  expect(page.status, page.text).toBe(200);
  expect(page.body.data?.length, `${path} lists group ${L}'s records`).toBeGreaterThan(0);
  expect(new Set(groupsOf(page))).toEqual(new Set([L]));
  expect(page.text).not.toContain(phoneC.reference);
  if (options.filterable !== false) {
    const filtered = await get(`${path}${separator}group=${C}`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.data).toEqual([]);
    if (options.totals !== false) expect((await get(`${path}${separator}group=${C}&result_type=total`)).body).toEqual({ count: 0 });
  }
}

/** A refused object answers exactly as a missing one: the same status and the same body. */
async function sameAsMissing(method: string, refused: string, missing: string, body?: unknown) {
  const [a, b] = [await asScoped(method, refused, body), await asScoped(method, missing, body)];
  expect({ status: a.status, body: a.body }, `${method} ${refused} answers as ${missing}`).toEqual({ status: b.status, body: b.body });
  return a;
}

/** A per-device list: the own group's device answers with its records, another group's as a missing device. */
async function perDevice(suffix: string, withData = true) {
  const own = await get(`/devices/${phoneL.reference}${suffix}`);
  expect(own.status, own.text).toBe(200);
  if (withData) expect(own.body.data?.length).toBeGreaterThan(0);
  await sameAsMissing('GET', `/devices/${phoneC.reference}${suffix}`, `/devices/${missingDevice}${suffix}`);
}

async function perUser(suffix: string) {
  const own = await get(`/users/${userL}${suffix}`);
  expect(own.status, own.text).toBe(200);
  expect(own.body.data?.length).toBeGreaterThan(0);
  await sameAsMissing('GET', `/users/${userC}${suffix}`, `/users/${missingUser}${suffix}`);
}

/** A single payload of another group: the spec's own refusal, GroupNotAuthorised (no payload data of it leaves). */
async function payloadRefused(method: string, path: string, body?: unknown) {
  const answer = await asScoped(method, path, body);
  expect(answer.status, answer.text).toBe(403);
  expect(answer.body.message).toContain('GroupNotAuthorised');
}

const userBody = (group: string) => ({ group, services: ['calls'], expected_device_count: 1, email: 'x@acme.test', first_name: 'X', surname: 'Y' });

const CASES: Record<string, () => Promise<void>> = {
  'admin.dashboard.get': async () => {
    const own = await get('/dashboard');
    expect(own.status, own.text).toBe(200);
    const devices = own.body.devices as { activated: number; pending: number; deactivated: number };
    const users = own.body.users as { onboarded: number; offboarded: number };
    // Group L holds one phone; its users are exactly those the scoped user list counts.
    expect(devices.activated + devices.pending + devices.deactivated).toBe(1);
    const listed = (await get('/users?result_type=total')).body.count as number;
    expect(users.onboarded + users.offboarded).toBe(listed);
    const tenant = (await asAdmin('GET', '/dashboard')).body;
    const tenantDevices = tenant.devices as { activated: number };
    expect(tenantDevices.activated).toBeGreaterThan(devices.activated);
  },
  'admin.devices.list': async () => {
    await onlyOwnGroup('/devices');
    expect(devicesOf(await get('/devices'))).toEqual([phoneL.reference]);
    expect((await get(`/devices?device_user_reference=${userC}`)).body.data).toEqual([]);
  },
  'admin.devices.get': async () => {
    expect((await get(`/devices/${phoneL.reference}`)).body.group).toBe(L);
    const refused = await sameAsMissing('GET', `/devices/${phoneC.reference}`, `/devices/${missingDevice}`);
    expect(refused.status).toBe(404);
  },
  'admin.devices.deactivate': async () => {
    await sameAsMissing('DELETE', `/devices/${phoneC.reference}`, `/devices/${missingDevice}`);
    expect((await asAdmin('GET', `/devices/${phoneC.reference}`)).body.is_deactivated).toBe(false);
  },
  'admin.devices.commands.list': () => perDevice('/commands'),
  'admin.devices.commands.send': async () => {
    expect((await asScoped('POST', `/devices/${phoneL.reference}/commands`, { command: 'sync_data' })).status).toBe(201);
    const refused = await sameAsMissing('POST', `/devices/${phoneC.reference}/commands`, `/devices/${missingDevice}/commands`, { command: 'sync_data' });
    expect(refused.status).toBe(404);
    const sent = await asAdmin('GET', `/devices/${phoneC.reference}/commands`);
    expect(sent.body.data).toHaveLength(1);
  },
  'admin.devices.history': async () => {
    await perDevice('/history');
    expect(groupsOf(await get(`/devices/${phoneL.reference}/history`))).toEqual([L]);
  },
  'admin.devices.telemetry': () => perDevice('/telemetry'),
  'admin.commands.list': async () => {
    await onlyOwnGroup('/commands');
    const pages = [await get('/commands?limit=1')];
    const next = pages[0]?.body.last_key;
    if (next !== undefined) pages.push(await get(`/commands?limit=1&last_key=${encodeURIComponent(next)}`));
    for (const page of pages) expect(page.body.data?.map((command) => command.group)).toEqual([L]);
  },
  'admin.telemetry.list': async () => {
    const page = await get('/telemetry');
    expect(devicesOf(page)).toEqual([phoneL.reference]);
    expect((await get(`/telemetry?group=${C}`)).body.data).toEqual([]);
    expect((await get(`/telemetry?group=${C}&result_type=total`)).body).toEqual({ count: 0 });
  },
  'admin.metrics.get': async () => {
    const page = await get('/metrics/Summary');
    expect(page.status, page.text).toBe(200);
    expect(devicesOf(page)).toContain(phoneL.reference);
    expect(devicesOf(page)).not.toContain(phoneC.reference);
    expect((await get(`/metrics/Summary?device_reference=${phoneC.reference}`)).body.data).toEqual([]);
    expect((await get(`/metrics/Summary?device_reference=${phoneC.reference}&result_type=total`)).body).toEqual({ count: 0 });
  },
  'admin.users.list': async () => {
    await onlyOwnGroup('/users');
    // Pages fill with the role's own records while paging, rather than answer empty pages with a cursor.
    const first = await get('/users?limit=1');
    expect(first.body.data?.map((user) => user.group)).toEqual([L]);
    expect((await get(`/users?search=${userC}`)).body.data).toEqual([]);
  },
  'admin.users.get': async () => {
    expect((await get(`/users/${userL}`)).body.group).toBe(L);
    expect((await sameAsMissing('GET', `/users/${userC}`, `/users/${missingUser}`)).status).toBe(404);
  },
  'admin.users.create': async () => {
    const into = await asScoped('POST', `/users/du-new-${run}`, userBody(M));
    expect(into.status, into.text).toBe(403);
    expect(into.body.message).toBe(`Access denied: your roles do not allow onboarding device users (deviceUsers:Create) on group "${M}"`);
    expect((await asAdmin('GET', `/users/du-new-${run}`)).status).toBe(404);
    expect((await asScoped('POST', `/users/du-new-${run}`, userBody(L))).status).toBe(201);
    // An existing user of another group is neither re-onboarded nor told apart from an onboarded one.
    expect((await asScoped('POST', `/users/${userC}`, userBody(L))).status).toBe(409);
    expect((await asAdmin('GET', `/users/${userC}`)).body.group).toBe(C);
  },
  'admin.users.update': async () => {
    const moved = await asScoped('PUT', `/users/${userL}`, { ...userBody(M), is_active: true });
    expect(moved.status, moved.text).toBe(403);
    expect((await asAdmin('GET', `/users/${userL}`)).body.group).toBe(L);
    const intoOwn = await sameAsMissing('PUT', `/users/${userC}`, `/users/${missingUser}`, { ...userBody(L), is_active: true });
    expect(intoOwn.status).toBe(404);
    expect((await asAdmin('GET', `/users/${userC}`)).body.group).toBe(C);
    expect((await asScoped('PUT', `/users/${userL}`, { ...userBody(L), services: ['calls', 'sms', 'gps'], is_active: true })).status).toBe(200);
  },
  'admin.users.delete': async () => {
    expect((await sameAsMissing('DELETE', `/users/${userC}`, `/users/${missingUser}`)).status).toBe(404);
    expect((await asAdmin('GET', `/users/${userC}`)).body.is_active).toBe(true);
  },
  'admin.users.devices': () => perUser('/devices'),
  'admin.device-activities.list': async () => {
    const page = await get('/device_activities');
    expect(page.status, page.text).toBe(200);
    expect(page.body.data?.length).toBeGreaterThan(0);
    expect(new Set(groupsOf(page))).toEqual(new Set([L]));
    expect((await get(`/device_activities?device_reference=${phoneC.reference}`)).body.data).toEqual([]);
    expect((await get(`/device_activities?group=${C}&result_type=total`)).body).toEqual({ count: 0 });
  },
  'client.device-logs.list': () => onlyOwnGroup('/device_logs'),
  'client.devices.logs': () => perDevice('/logs'),
  'client.users.logs': () => perUser('/logs'),
  'client.gps.list': () => onlyOwnGroup('/gps'),
  'client.devices.gps': () => perDevice('/gps'),
  'client.users.gps': () => perUser('/gps'),
  // Capture completeness of one device or device user: this run's phones report no ledger, so only the refusal is
  // checked here (the rows' own scope is test/integration/completeness-report.test.ts).
  'client.completeness.device': () => perDevice('/completeness', false),
  'client.completeness.device-user': async () => {
    expect((await get(`/users/${userL}/completeness`)).status).toBe(200);
    expect((await sameAsMissing('GET', `/users/${userC}/completeness`, `/users/${missingUser}/completeness`)).status).toBe(404);
  },
  'client.payloads.list': () => onlyOwnGroup('/payloads'),
  'client.devices.payloads': () => perDevice('/payloads'),
  'client.users.payloads': () => perUser('/payloads'),
  'client.devices.sms-thread': () => perDevice('/sms/t1'),
  'client.payloads.get': async () => {
    expect((await get(`/payloads/${payloadL}`)).status).toBe(200);
    await payloadRefused('GET', `/payloads/${payloadC}`);
  },
  'client.payloads.audit': async () => {
    expect((await get(`/payloads/${payloadL}/audit`)).status).toBe(200);
    await payloadRefused('GET', `/payloads/${payloadC}/audit`);
  },
  'client.payloads.data': () => payloadRefused('GET', `/payloads/${payloadC}/data`),
  'client.payloads.waveform': () => payloadRefused('GET', `/payloads/${payloadC}/waveform`),
  'client.data.bulk': async () => {
    const answer = await get(`/data?payload_references=${payloadC}`);
    expect(answer.text).not.toContain('s3_url');
    expect(answer.text).toContain('GroupNotAuthorised');
  },
  'client.payloads.restore': () => payloadRefused('POST', `/payloads/${payloadC}/restore`),
  'client.receipts.confirm': async () => {
    const answer = await asScoped('POST', '/receipts', { payload_references: [payloadC] });
    expect(answer.text).toContain('GroupNotAuthorised');
    expect((await asAdmin('GET', `/payloads/${payloadC}`)).body.receipt_confirmed_at).toBeUndefined();
  },
  'client.comments.list': async () => {
    const page = await get('/comments');
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(commentOn[payloadL]);
    expect(page.text).not.toContain(commentOn[payloadC]);
  },
  'client.payloads.comments.list': async () => {
    expect((await get(`/payloads/${payloadL}/comments`)).body.data?.length).toBeGreaterThan(0);
    await payloadRefused('GET', `/payloads/${payloadC}/comments`);
  },
  'client.payloads.comments.create': () => payloadRefused('POST', `/payloads/${payloadC}/comments`, { message: 'not mine' }),
  'client.payloads.comments.update': () => payloadRefused('PUT', `/payloads/${payloadC}/comments/${commentOn[payloadC]}`, { message: 'not mine' }),
  'client.payloads.comments.delete': () => payloadRefused('DELETE', `/payloads/${payloadC}/comments/${commentOn[payloadC]}`),
};

/** The action areas whose endpoints read or change devices, device users or what they record. */
const DEVICE_AREAS = new Set(['devices', 'deviceUsers', 'telemetry', 'commands', 'deviceLogs', 'gps', 'metrics', 'dashboard', 'deviceActivities', 'payloads', 'comments']);
const touchesDevices = (endpoint: Endpoint) =>
  (endpoint.surface === 'admin' || endpoint.surface === 'client') &&
  (DEVICE_AREAS.has(endpoint.action.split(':')[0] ?? '') || /\{device_(user_)?reference\}/.test(endpoint.path));
const scopedEndpoints = (ENDPOINTS as readonly Endpoint[]).filter(touchesDevices);

describe('group scope on every device, device-user and device-data endpoint', () => {
  it('knows how to check every such endpoint of the registry', () => {
    expect(scopedEndpoints.length).toBeGreaterThanOrEqual(39);
    expect(scopedEndpoints.filter((endpoint) => CASES[endpoint.id] === undefined).map((endpoint) => endpoint.id)).toEqual([]);
  });

  it.each(scopedEndpoints.map((endpoint) => [endpoint.id, endpoint] as const))('%s', async (id) => {
    const check = CASES[id];
    if (check === undefined) throw new Error(`No group-scope check for ${id}`);
    await check();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Every kind of condition. Each role is a portal user's own; what it sees is counted against the tenant's admin.

interface Viewer {
  /** Which kind of condition the role has. */
  kind: string;
  /** The role's permissions (contract `Permission`s). */
  permissions: Array<Record<string, unknown>>;
  /** Which of this run's groups the role sees. */
  sees: ReadonlySet<Group>;
  authorization?: string;
}

const allow = (conditions?: Array<Record<string, unknown>>) => ({ actions_matching: '*', ...(conditions === undefined ? {} : { conditions }) });
const deny = (conditions: Array<Record<string, unknown>>) => ({ actions_matching: '*', is_denied: true, conditions });

const VIEWERS: Viewer[] = [
  { kind: 'allow by name', permissions: [allow([{ names_matching: L }])], sees: new Set([L]) },
  { kind: 'allow by tag key', permissions: [allow([{ keys_matching: K }])], sees: new Set([L, M]) },
  { kind: 'allow by tag value', permissions: [allow([{ keys_matching: K, values_matching: 'v2' }])], sees: new Set([M]) },
  { kind: 'deny by name', permissions: [allow(), deny([{ names_matching: C }])], sees: new Set([L, M]) },
  { kind: 'exclude by name', permissions: [allow([{ names_matching: C, is_denied: true }])], sees: new Set([L, M]) },
  { kind: 'deny by tag', permissions: [allow(), deny([{ keys_matching: K, values_matching: 'v1' }])], sees: new Set([C, M]) },
  { kind: 'allow by tag, deny by name', permissions: [allow([{ keys_matching: K }]), deny([{ names_matching: L }])], sees: new Set([M]) },
];

const GROUPS = () => [L, C, M] as const;
const phoneOf = (group: Group) => ({ [L]: phoneL, [C]: phoneC, [M]: phoneM })[group] as Phone;
const userOf = (group: Group) => ({ [L]: userL, [C]: userC, [M]: userM })[group] as string;
const payloadOf = (group: Group) => ({ [L]: payloadL, [C]: payloadC, [M]: payloadM })[group] as string;
/** The day range all of this run's device data falls in (no other data of the tenant does). */
const RANGE = `from=${year}-06-01&to=${year}-06-09`;
/** A minute before this file started, as a `from` parameter (YYYY-MM-DD-HHMMSS, UTC). */
const since = new Date(Date.now() - 60_000).toISOString().replace(/T(\d\d):(\d\d):(\d\d).*$/, '-$1$2$3');

const as = (viewer: Viewer, method: string, path: string, body?: unknown) => send(method, `/api/v1/${CLIENT}${path}`, viewer.authorization ?? '', body);
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/**
 * The admin's count of a list (the truth this run seeded, as the tenant sees it), asked once per list: these checks
 * run after the by-name role's writes and change nothing themselves, so the truth holds for every kind.
 */
const truths = new Map<string, Promise<number>>();
function adminTotal(path: string): Promise<number> {
  const asked = truths.get(path) ?? countAsAdmin(path);
  truths.set(path, asked);
  return asked;
}

/** The admin's answer to a GET, asked once per path (as the truths are). */
const adminBodies = new Map<string, Promise<Answer['body']>>();
function adminBody(path: string): Promise<Answer['body']> {
  const asked = adminBodies.get(path) ?? asAdmin('GET', path).then((answer) => answer.body);
  adminBodies.set(path, asked);
  return asked;
}

async function countAsAdmin(path: string): Promise<number> {
  const answer = await asAdmin('GET', withQuery(path, 'result_type=total'));
  expect(answer.status, answer.text).toBe(200);
  return answer.body.count as number;
}

/** The viewer's total of a list equals the admin's when the viewer sees `group`, else 0. */
async function totalIs(viewer: Viewer, path: string, group: Group) {
  const truth = await adminTotal(path);
  expect(truth, `${path} holds records`).toBeGreaterThan(0);
  const answer = await as(viewer, 'GET', withQuery(path, 'result_type=total'));
  expect(answer.body, `${viewer.kind}: ${path}`).toEqual({ count: viewer.sees.has(group) ? truth : 0 });
}

/** Each group's share of a tenant list (filtered by `group`) is counted whole or not at all. */
async function groupShares(viewer: Viewer, path: string) {
  for (const group of GROUPS()) await totalIs(viewer, withQuery(path, `group=${group}`), group);
}

/** A tenant list of device data in this run's range: exactly the records of the devices the viewer sees, and their count. */
async function deviceRecords(viewer: Viewer, path: string) {
  const ranged = withQuery(path, RANGE);
  const perDevice = await Promise.all(GROUPS().map(async (group) => [group, await adminTotal(withQuery(ranged, `device_reference=${phoneOf(group).reference}`))] as const));
  const truth = perDevice.filter(([group]) => viewer.sees.has(group)).reduce((sum, [, count]) => sum + count, 0);
  const page = await as(viewer, 'GET', withQuery(ranged, 'limit=100'));
  expect(page.status, page.text).toBe(200);
  expect(new Set(devicesOf(page)), `${viewer.kind}: ${ranged}`).toEqual(new Set(GROUPS().filter((group) => viewer.sees.has(group)).map((group) => phoneOf(group).reference)));
  expect(page.body.data?.length).toBe(truth);
  expect((await as(viewer, 'GET', withQuery(ranged, 'result_type=total'))).body, `${viewer.kind}: total of ${ranged}`).toEqual({ count: truth });
  await groupShares(viewer, ranged);
}

/** A single object (or a per-object list) of each group: the viewer's own answer as the admin's; others' as missing. */
async function perObject(viewer: Viewer, pathOf: (group: Group) => string, missing: string, options: { method?: string; body?: unknown; compare?: boolean } = {}) {
  const method = options.method ?? 'GET';
  const missingAnswer = await as(viewer, method, missing, options.body);
  for (const group of GROUPS()) {
    const path = pathOf(group);
    const answer = await as(viewer, method, path, options.body);
    if (viewer.sees.has(group)) {
      expect(answer.status, `${viewer.kind}: ${method} ${path} ${answer.text}`).toBeLessThan(300);
      if (options.compare !== false) expect(answer.body, `${viewer.kind}: ${path}`).toEqual(await adminBody(path));
    } else {
      expect({ status: answer.status, body: answer.body }, `${viewer.kind}: ${method} ${path} answers as ${missing}`).toEqual({ status: missingAnswer.status, body: missingAnswer.body });
    }
  }
}

/**
 * A payload of each group: the viewer's own readable (unless `readable` is false: only refusals are checked, for what
 * would act or needs stored media), others' refused with the spec's GroupNotAuthorised (403).
 */
async function perPayload(
  viewer: Viewer,
  suffix: string | ((group: Group) => string),
  options: { readable?: boolean; method?: string; body?: unknown } = {},
) {
  for (const group of GROUPS()) {
    if (viewer.sees.has(group) && options.readable === false) continue;
    const path = `/payloads/${payloadOf(group)}${typeof suffix === 'string' ? suffix : suffix(group)}`;
    const answer = await as(viewer, options.method ?? 'GET', path, options.body);
    if (viewer.sees.has(group)) expect(answer.status, `${viewer.kind}: ${answer.text}`).toBe(200);
    else expect({ status: answer.status, refused: answer.body.message?.includes('GroupNotAuthorised') }, `${viewer.kind}: ${path}`).toEqual({ status: 403, refused: true });
  }
}

const deviceOf = (group: Group) => `/devices/${phoneOf(group).reference}`;
const deviceUserOf = (group: Group) => `/users/${userOf(group)}`;

const KIND_CASES: Record<string, (viewer: Viewer) => Promise<void>> = {
  'client.device-logs.list': (viewer) => deviceRecords(viewer, '/device_logs'),
  'client.gps.list': (viewer) => deviceRecords(viewer, '/gps'),
  'client.devices.logs': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/logs?${RANGE}`, `/devices/${missingDevice}/logs?${RANGE}`),
  'client.devices.gps': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/gps?${RANGE}`, `/devices/${missingDevice}/gps?${RANGE}`),
  // Telemetry history is ordered by when a report arrived (now), not by this run's days.
  'admin.devices.telemetry': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/telemetry`, `/devices/${missingDevice}/telemetry`),
  'client.users.logs': async (viewer) => {
    // A device user's list shows each record by its device's group now: all of the user's records or none here.
    for (const group of GROUPS()) await totalIs(viewer, `${deviceUserOf(group)}/logs?${RANGE}`, group);
  },
  'client.users.gps': async (viewer) => {
    for (const group of GROUPS()) await totalIs(viewer, `${deviceUserOf(group)}/gps?${RANGE}`, group);
  },
  'admin.device-activities.list': async (viewer) => {
    // The trail is the whole tenant's: read from this run's start only.
    for (const group of GROUPS()) await totalIs(viewer, `/device_activities?from=${since}&device_reference=${phoneOf(group).reference}`, group);
    await groupShares(viewer, `/device_activities?from=${since}`);
  },
  'admin.telemetry.list': (viewer) => groupShares(viewer, '/telemetry'),
  'admin.devices.list': (viewer) => groupShares(viewer, '/devices'),
  'admin.devices.get': (viewer) => perObject(viewer, deviceOf, `/devices/${missingDevice}`),
  'admin.devices.history': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/history`, `/devices/${missingDevice}/history`, { compare: false }),
  'admin.devices.commands.list': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/commands`, `/devices/${missingDevice}/commands`, { compare: false }),
  'admin.commands.list': (viewer) => groupShares(viewer, '/commands'),
  'admin.users.list': (viewer) => groupShares(viewer, '/users'),
  'admin.users.get': (viewer) => perObject(viewer, deviceUserOf, `/users/${missingUser}`),
  'admin.users.devices': (viewer) => perObject(viewer, (group) => `${deviceUserOf(group)}/devices`, `/users/${missingUser}/devices`, { compare: false }),
  'client.payloads.list': (viewer) => groupShares(viewer, '/payloads'),
  'client.devices.payloads': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/payloads`, `/devices/${missingDevice}/payloads`),
  'client.users.payloads': (viewer) => perObject(viewer, (group) => `${deviceUserOf(group)}/payloads`, `/users/${missingUser}/payloads`),
  'client.completeness.device': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/completeness`, `/devices/${missingDevice}/completeness`),
  'client.completeness.device-user': (viewer) => perObject(viewer, (group) => `${deviceUserOf(group)}/completeness`, `/users/${missingUser}/completeness`),
  'client.devices.sms-thread': (viewer) => perObject(viewer, (group) => `${deviceOf(group)}/sms/t1`, `/devices/${missingDevice}/sms/t1`),
  'admin.metrics.get': async (viewer) => {
    for (const group of GROUPS()) await totalIs(viewer, `/metrics/Summary?device_reference=${phoneOf(group).reference}`, group);
  },
  'client.comments.list': (viewer) => groupShares(viewer, '/comments'),
  'client.payloads.get': (viewer) => perPayload(viewer, ''),
  'client.payloads.audit': (viewer) => perPayload(viewer, '/audit'),
  'client.payloads.comments.list': (viewer) => perPayload(viewer, '/comments'),
  'client.payloads.data': (viewer) => perPayload(viewer, '/data', { readable: false }),
  'client.payloads.waveform': (viewer) => perPayload(viewer, '/waveform', { readable: false }),
  'client.data.bulk': async (viewer) => {
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const answer = await as(viewer, 'GET', `/data?payload_references=${payloadOf(group)}`);
      expect(answer.text, viewer.kind).not.toContain('s3_url');
      expect(answer.text, viewer.kind).toContain('GroupNotAuthorised');
    }
  },
  // Payload writes of another group: refused with GroupNotAuthorised, and nothing written.
  'client.payloads.restore': (viewer) => perPayload(viewer, '/restore', { readable: false, method: 'POST' }),
  'client.receipts.confirm': async (viewer) => {
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const answer = await as(viewer, 'POST', '/receipts', { payload_references: [payloadOf(group)] });
      expect(answer.text, viewer.kind).toContain('GroupNotAuthorised');
      expect((await asAdmin('GET', `/payloads/${payloadOf(group)}`)).body.receipt_confirmed_at).toBeUndefined();
    }
  },
  'client.payloads.comments.create': (viewer) => perPayload(viewer, '/comments', { readable: false, method: 'POST', body: { message: 'not mine' } }),
  'client.payloads.comments.update': (viewer) =>
    perPayload(viewer, (group) => `/comments/${commentOn[payloadOf(group)]}`, { readable: false, method: 'PUT', body: { message: 'not mine' } }),
  'client.payloads.comments.delete': (viewer) => perPayload(viewer, (group) => `/comments/${commentOn[payloadOf(group)]}`, { readable: false, method: 'DELETE' }),
  // Writes: refused on another group's objects exactly as on missing ones, and nothing changes there.
  'admin.devices.commands.send': async (viewer) => {
    const before = await Promise.all(GROUPS().map((group) => countAsAdmin(`/commands?group=${group}`)));
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const [refused, missing] = [await as(viewer, 'POST', `${deviceOf(group)}/commands`, { command: 'sync_data' }), await as(viewer, 'POST', `/devices/${missingDevice}/commands`, { command: 'sync_data' })];
      expect({ status: refused.status, body: refused.body }, viewer.kind).toEqual({ status: missing.status, body: missing.body });
    }
    expect(await Promise.all(GROUPS().map((group) => countAsAdmin(`/commands?group=${group}`)))).toEqual(before);
  },
  'admin.devices.deactivate': async (viewer) => {
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const [refused, missing] = [await as(viewer, 'DELETE', deviceOf(group)), await as(viewer, 'DELETE', `/devices/${missingDevice}`)];
      expect({ status: refused.status, body: refused.body }, viewer.kind).toEqual({ status: missing.status, body: missing.body });
      expect((await asAdmin('GET', deviceOf(group))).body.is_deactivated).toBe(false);
    }
  },
  'admin.users.update': async (viewer) => {
    for (const group of GROUPS()) {
      const target = viewer.sees.has(group) ? group : undefined;
      // Into a group the role does not see: refused (403) for its own users; another group's user answers as missing.
      const elsewhere = GROUPS().find((other) => !viewer.sees.has(other)) as Group;
      const answer = await as(viewer, 'PUT', deviceUserOf(group), { ...userBody(elsewhere), is_active: true });
      expect(answer.status, `${viewer.kind}: ${answer.text}`).toBe(target === undefined ? 404 : 403);
      expect((await asAdmin('GET', deviceUserOf(group))).body.group).toBe(group);
    }
  },
  'admin.users.create': async (viewer) => {
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const reference = `du-kind-${run}-${group}`;
      const answer = await as(viewer, 'POST', `/users/${reference}`, userBody(group));
      expect(answer.status, `${viewer.kind}: ${answer.text}`).toBe(403);
      expect((await asAdmin('GET', `/users/${reference}`)).status).toBe(404);
    }
  },
  'admin.users.delete': async (viewer) => {
    for (const group of GROUPS().filter((own) => !viewer.sees.has(own))) {
      const [refused, missing] = [await as(viewer, 'DELETE', deviceUserOf(group)), await as(viewer, 'DELETE', `/users/${missingUser}`)];
      expect({ status: refused.status, body: refused.body }, viewer.kind).toEqual({ status: missing.status, body: missing.body });
      expect((await asAdmin('GET', deviceUserOf(group))).body.is_active).toBe(true);
    }
  },
};

/**
 * Endpoints checked for the by-name role only, and why not for every kind: the dashboard sums the counters of the
 * groups a role sees over the whole tenant, whose other groups (other tests', the demo seed's) have no truth here.
 */
const BY_NAME_ONLY = new Set(['admin.dashboard.get']);

describe('group scope for every kind of condition', () => {
  beforeAll(async () => {
    await Promise.all(
      VIEWERS.map(async (viewer, index) => {
        const role = `kind-${index}-${run}`;
        const put = await asAdmin('PUT', `/roles/${role}`, {
          permissions: viewer.permissions,
          alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
          description: viewer.kind,
        });
        expect(put.status, put.text).toBe(200);
        const sub = `kind-${index}-${run}`;
        viewer.authorization = `Bearer ${await portalTokenFor(CLIENT, { sub, email: `${sub}@acme.test`, groups: [role] })}`;
      }),
    );
  }, 60_000);

  it('knows how to check every such endpoint for every kind, or says why it checks it for the by-name role only', () => {
    const unchecked = scopedEndpoints.filter((endpoint) => KIND_CASES[endpoint.id] === undefined && !BY_NAME_ONLY.has(endpoint.id)).map((endpoint) => endpoint.id);
    expect(unchecked).toEqual([]);
  });

  it.each(scopedEndpoints.filter((endpoint) => KIND_CASES[endpoint.id] !== undefined).map((endpoint) => [endpoint.id] as const))('%s', async (id) => {
    const check = KIND_CASES[id] as (viewer: Viewer) => Promise<void>;
    await Promise.all(VIEWERS.map((viewer) => check(viewer)));
  });
});
