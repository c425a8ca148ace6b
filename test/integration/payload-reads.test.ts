import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { threadIndexKeys } from '#core/store/entities/payload.ts';
import { PayloadType } from '#shared/constants/payloads.ts';
import { createTestIssuer, type TestIssuer } from '#core/testing/test-tokens.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Payload lists, detail, data links, audit, restore and receipts on the local stack. The payload items are fixtures
 * written with the key builders (the pipeline's own tests prove how real uploads get there), on a device of this
 * run only, with sealed meta from `sealPayload`. A client app holds a role restricted to ONE group and ONE type.
 */
const run = randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase();
const client = 'demo';
const device = `dev-reads-${run}`;
/** A second device whose captures never all reached Processed: what "stored" leaves out. */
const captureDevice = `dev-capture-${run}`;
const deviceUser = `user-reads-${run}`;
const groupA = `grp-a-${run}`;
const groupB = `grp-b-${run}`;
const base = `/api/v1/${client}`;
let deps: Dependencies;
let server: Server;
let issuer: TestIssuer;
let admin: string;
let restricted: string;

const ref = (name: string) => `${ulid()}${name}`.slice(0, 36);
const refs = {
  callA: ref('CALLA'),
  callB: ref('CALLB'),
  smsA1: ref('SMS1'),
  smsA2: ref('SMS2'),
  aborted: ref('ABRT'),
  deleted: ref('DEL'),
  destroyed: ref('DEST'),
  storedCall: ref('STORED'),
  failedCall: ref('FAIL'),
  quarantinedCall: ref('QUAR'),
};
const day = (n: number) => new Date(Date.UTC(2024, 4, n, 10)).toISOString();

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await api(`${base}${path}`, {
    method,
    headers: bearer(token, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> } };
}
const referencesOf = (body: { data?: Array<Record<string, unknown>> }) => (body.data ?? []).map((item) => item.payload_reference);

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const now = new Date().toISOString();

  server = createServer((_, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(issuer.jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));
  issuer = await createTestIssuer(`https://reads-${run.toLowerCase()}.example.com`, `reads-${run}`);
  const role = `pr${run}`;
  await deps.table.put({
    ...keys.role.item(client, role),
    client,
    role_reference: role,
    permissions: [{ actions_matching: 'payloads:*', is_denied: false, is_regex: false, conditions: [{ names_matching: groupA, is_denied: false, is_regex: false }] }],
    payload_types: ['Call'],
    cidr_ranges: [],
    alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
    updated_at: now,
  });
  await deps.table.put({
    ...keys.clientApp.item(client, `reads-${run}`),
    client,
    app_reference: `reads-${run}`,
    oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: `http://${TENANT_STAND_IN_HOST}:${(server.address() as AddressInfo).port}/jwks` },
    roles: [role],
    cidr_ranges: [],
    updated_at: now,
  });
  for (const group of [groupA, groupB]) {
    await deps.table.put({ ...keys.group.item(client, group), client, group_reference: group, tags: [], updated_at: now });
  }

  const fixture = async (
    reference: string,
    type: string,
    state: string,
    group: string,
    time: string,
    meta: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => {
    const content = Buffer.from(`content of ${reference}`);
    const { registration } = sealPayload({ kek, client, keyId: kekId, content, meta: { payload_time: time, ...meta } });
    const onDevice = typeof extra.device_reference === 'string' ? extra.device_reference : device;
    const byUser = typeof extra.device_user_reference === 'string' ? extra.device_user_reference : deviceUser;
    await deps.table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: onDevice, deviceUserReference: byUser }),
      client,
      device_reference: onDevice,
      device_user_reference: byUser,
      group,
      payload_reference: reference,
      payload_type: type,
      payload_state: state,
      key_id: registration.key_id,
      encrypted_dek: registration.encrypted_dek,
      content_iv: registration.iv,
      sealed_meta: registration.meta,
      checksum: registration.checksum,
      payload_time: time,
      uploaded_at: time,
      processed_at: time,
      updated_at: now,
      is_late: false,
      is_legacy: false,
      ...extra,
      // A message with a thread is on its thread's index, as processing leaves it (this tenant's threads are indexed).
      ...threadIndexKeys(client, { payload_reference: reference, payload_type: PayloadType.parse(type), device_reference: onDevice, thread_id: typeof extra.thread_id === 'string' ? extra.thread_id : undefined, payload_time: time }),
    });
    if (state === 'Processed') await deps.blobs.put('processed', payloadObjectKey(client, reference), content, { contentType: 'audio/mp4' });
  };
  const party = (number: string) => ({ second_parties: [{ phone_number: number, direction: 'O' }] });
  await fixture(refs.callA, 'Call', 'Processed', groupA, day(1), party('+447700900001'), { all_numbers: '+447700900001,+447700900099', second_party_numbers: '+447700900001' });
  await fixture(refs.callB, 'Call', 'Processed', groupB, day(2), party('+447700900002'), { all_numbers: '+447700900002' });
  await fixture(refs.smsA1, 'SMS', 'Processed', groupA, day(3), { direction: 'I', thread_id: 't1', message_parties: [{ phone_number: '+447700900003' }] }, { thread_id: 't1' });
  await fixture(refs.smsA2, 'SMS', 'Processed', groupA, day(4), { direction: 'O', thread_id: 't1', message_parties: [{ phone_number: '+447700900003' }] }, { thread_id: 't1' });
  await fixture(refs.aborted, 'AbortedCall', 'Processed', groupA, day(5), party('+447700900005'));
  await fixture(refs.deleted, 'Call', 'Deleted', groupA, day(6), party('+447700900006'));
  await fixture(refs.destroyed, 'Call', 'Destroyed', groupA, day(7), party('+447700900007'));
  const capturing = { device_reference: captureDevice, device_user_reference: `${deviceUser}-capture` };
  // A capture that failed its checks never reached Processed: no processed_at, as processing leaves it.
  await fixture(refs.storedCall, 'Call', 'Processed', groupA, day(8), party('+447700900008'), capturing);
  await fixture(refs.failedCall, 'Call', 'Failed', groupA, day(9), party('+447700900009'), { ...capturing, processed_at: undefined });
  await fixture(refs.quarantinedCall, 'Call', 'Quarantined', groupA, day(10), party('+447700900010'), { ...capturing, processed_at: undefined });

  admin = (await signIn('admin@demo.test')).id_token;
  restricted = await issuer.sign({ sub: 'reader' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('payload lists', () => {
  it('lists a device newest first, with type, state, number, date and user filters, pages and totals', async () => {
    const all = await call('GET', `/devices/${device}/payloads`, admin);
    expect(all.status).toBe(200);
    expect(referencesOf(all.body)).toEqual([refs.destroyed, refs.deleted, refs.aborted, refs.smsA2, refs.smsA1, refs.callB, refs.callA]);
    expect(all.body.data?.[0]).not.toHaveProperty('meta');

    const calls = await call('GET', `/devices/${device}/payloads?payload_types=Call,AbortedCall,BlockedCall&payload_state=Processed`, admin);
    expect(referencesOf(calls.body)).toEqual([refs.aborted, refs.callB, refs.callA]);
    // The groups of spec point 9 expand server-side, alone or beside type names.
    const callsGroup = await call('GET', `/devices/${device}/payloads?payload_types=Calls&payload_state=Processed`, admin);
    expect(referencesOf(callsGroup.body)).toEqual([refs.aborted, refs.callB, refs.callA]);
    const messages = await call('GET', `/payloads?device_reference=${device}&payload_types=Messages`, admin);
    expect(referencesOf(messages.body)).toEqual([refs.smsA2, refs.smsA1]);
    expect((await call('GET', `/devices/${device}/payloads?payload_types=Messages,AbortedCall&result_type=total`, admin)).body).toEqual({ count: 3 });
    expect((await call('GET', `/devices/${device}/payloads?payload_types=calls`, admin)).status).toBe(400);
    const byNumber = await call('GET', `/payloads?device_reference=${device}&phone_number=${encodeURIComponent('+44 7700 900099')}`, admin);
    expect(referencesOf(byNumber.body)).toEqual([refs.callA]);
    const ranged = await call('GET', `/users/${deviceUser}/payloads?from=2024-05-02&to=2024-05-03`, admin);
    expect(referencesOf(ranged.body)).toEqual([refs.smsA1, refs.callB]);
    const total = await call('GET', `/devices/${device}/payloads?result_type=total&group=${groupA}`, admin);
    expect(total.body).toEqual({ count: 6 });
    expect((await call('GET', `/devices/${device}/payloads?date_filter_type=processed_at&from=2024-05-07`, admin)).body.count).toBe(1);
    expect((await call('GET', `/devices/${device}/payloads?from=2024-05-07&to=2024-05-01`, admin)).status).toBe(400);

    const first = await call('GET', `/devices/${device}/payloads?limit=4`, admin);
    expect(first.body.count).toBe(4);
    const rest = await call('GET', `/devices/${device}/payloads?limit=4&last_key=${encodeURIComponent(String(first.body.last_key))}`, admin);
    expect([...referencesOf(first.body), ...referencesOf(rest.body)]).toEqual(referencesOf(all.body));
    expect(rest.body.last_key).toBeUndefined();
    // A cursor is bound to its filters.
    const other = await call('GET', `/devices/${device}/payloads?limit=4&payload_types=SMS&last_key=${encodeURIComponent(String(first.body.last_key))}`, admin);
    expect(other.status).toBe(400);
  });

  it('keeps only the recordings stored, as the metrics count them, or only the captures that never were', async () => {
    const stored = await call('GET', `/devices/${device}/payloads?stored=true`, admin);
    // Deleted and destroyed recordings were stored (the metrics keep them); on this device every one was.
    expect(referencesOf(stored.body)).toEqual([refs.destroyed, refs.deleted, refs.aborted, refs.smsA2, refs.smsA1, refs.callB, refs.callA]);
    expect(referencesOf((await call('GET', `/devices/${captureDevice}/payloads?stored=true`, admin)).body)).toEqual([refs.storedCall]);
    expect(referencesOf((await call('GET', `/devices/${captureDevice}/payloads?stored=false`, admin)).body)).toEqual([refs.quarantinedCall, refs.failedCall]);
    expect((await call('GET', `/payloads?device_reference=${captureDevice}&payload_types=Calls&stored=true&result_type=total`, admin)).body).toEqual({ count: 1 });
    const refused = await call('GET', `/devices/${captureDevice}/payloads?stored=yes`, admin);
    expect(refused.status).toBe(400);
    expect(String(refused.body.message)).toMatch(/^query\.stored: /);
    // A cursor is bound to this filter too.
    const first = await call('GET', `/devices/${device}/payloads?stored=true&limit=2`, admin);
    const other = await call('GET', `/devices/${device}/payloads?stored=false&limit=2&last_key=${encodeURIComponent(String(first.body.last_key))}`, admin);
    expect(other.status).toBe(400);
  });

  it('reads an SMS thread oldest first', async () => {
    const thread = await call('GET', `/devices/${device}/sms/t1`, admin);
    expect(referencesOf(thread.body)).toEqual([refs.smsA1, refs.smsA2]);
    expect(referencesOf((await call('GET', `/devices/${device}/sms/nothing`, admin)).body)).toEqual([]);
  });

  it('a role restricted to one group and one type sees only those, in pages and totals', async () => {
    const listed = await call('GET', `/devices/${device}/payloads`, restricted);
    expect(listed.status).toBe(200);
    expect(referencesOf(listed.body)).toEqual([refs.destroyed, refs.deleted, refs.callA]);
    expect((await call('GET', `/payloads?device_reference=${device}&result_type=total`, restricted)).body).toEqual({ count: 3 });
    expect(referencesOf((await call('GET', `/devices/${device}/sms/t1`, restricted)).body)).toEqual([]);
    // A group never widens a role's types: Calls,Messages still means Call only for this role.
    expect(referencesOf((await call('GET', `/devices/${device}/payloads?payload_types=Calls,Messages`, restricted)).body)).toEqual([refs.destroyed, refs.deleted, refs.callA]);
    expect((await call('GET', `/payloads/${refs.callB}`, restricted)).body.message).toMatch(/^GroupNotAuthorised/);
    expect((await call('GET', `/payloads/${refs.smsA1}`, restricted)).status).toBe(403);
    expect((await call('GET', `/payloads/${refs.smsA1}/data`, restricted)).body.message).toMatch(/^TypeNotAuthorised/);
    expect((await call('GET', `/payloads/${refs.callB}/audit`, restricted)).status).toBe(403);
    expect((await call('POST', `/payloads/${refs.callA}/restore`, restricted)).status).toBe(409);
  });
});

describe('payload detail, data and audit', () => {
  it('shows the meta decrypted', async () => {
    const detail = await call('GET', `/payloads/${refs.callA}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.body.meta).toMatchObject({ payload_time: day(1), second_parties: [{ phone_number: '+447700900001' }] });
    expect(detail.body).not.toHaveProperty('sealed_meta');
    expect((await call('GET', `/payloads/${ulid()}`, admin)).status).toBe(404);
  });

  it('names the device user and the device in lists and the detail, as they are when read', async () => {
    // Primary keys only: the user and the device stay out of the tenant's lists other tests count.
    const user = { ...keys.deviceUser.key(client, deviceUser), entity: 'DeviceUser', client, device_user_reference: deviceUser, is_active: true };
    await deps.table.put({ ...user, first_name: 'Nadia', surname: 'Novak' });
    await deps.table.put({
      ...keys.device.key(client, device),
      entity: 'Device',
      client,
      device_reference: device,
      device_user_reference: deviceUser,
      model: 'Pixel 8',
      phone_numbers: [
        { phone_number: '+447700900120', slot_index: 1 },
        { phone_number: '+447700900110', slot_index: 0 },
      ],
    });
    const named = { device_user_name: 'Nadia Novak', device_model: 'Pixel 8', device_phone_number: '+447700900110' };
    const listed = await call('GET', `/payloads?device_reference=${device}&payload_types=Calls`, admin);
    expect(listed.status).toBe(200);
    expect(listed.body.data?.length).toBeGreaterThan(0);
    for (const item of listed.body.data ?? []) expect(item).toMatchObject(named);
    expect((await call('GET', `/users/${deviceUser}/payloads`, admin)).body.data?.[0]).toMatchObject(named);
    expect((await call('GET', `/devices/${device}/sms/t1`, admin)).body.data?.[0]).toMatchObject(named);
    expect((await call('GET', `/payloads/${refs.callA}`, admin)).body).toMatchObject(named);

    // Renamed: every recording reads the new name at once (nothing was copied onto them). Destroyed by retention
    // (names gone): no name rather than an old one.
    await deps.table.put({ ...user, first_name: 'Nadia', surname: 'Novak-Reyes' });
    expect((await call('GET', `/payloads/${refs.callA}`, admin)).body).toMatchObject({ device_user_name: 'Nadia Novak-Reyes' });
    await deps.table.put({ ...user, retention_state: 'Destroyed' });
    expect((await call('GET', `/payloads/${refs.callA}`, admin)).body).not.toHaveProperty('device_user_name');
  });

  it('gives a working short-lived link, audits it, and says why when it cannot', async () => {
    const played = await call('GET', `/payloads/${refs.callA}/data?action=play`, admin);
    expect(played.status).toBe(200);
    const media = await fetch(String(played.body.s3_url));
    expect(await media.text()).toBe(`content of ${refs.callA}`);
    expect((await call('GET', `/payloads/${refs.callA}/data`, restricted)).status).toBe(200);
    expect((await call('GET', `/payloads/${refs.aborted}/data`, admin)).body.message).toMatch(/^NoS3Url/);
    expect((await call('GET', `/payloads/${refs.callA}/data?action=stream`, admin)).status).toBe(400);

    const audit = await call('GET', `/payloads/${refs.callA}/audit`, admin);
    expect(audit.body.records).toEqual([
      { portal_user: 'demo-admin', action: 'play', time: expect.any(String), actor: { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' } },
      { portal_user: `app:reads-${run}`, action: 'download', time: expect.any(String), actor: { reference: `app:reads-${run}`, kind: 'client-app', name: `reads-${run}` } },
    ]);
  });

  it('answers one status per reference in bulk', async () => {
    const missing = ulid();
    const list = [refs.callA, refs.callB, refs.smsA1, refs.aborted, missing, refs.deleted].join(',');
    const bulk = await call('GET', `/data?payload_references=${list}`, restricted);
    expect(bulk.status).toBe(200);
    expect(bulk.body.data?.map((entry) => [entry.payload_reference, entry.status])).toEqual([
      [refs.callA, 'Ok'],
      [refs.callB, 'GroupNotAuthorised'],
      [refs.smsA1, 'TypeNotAuthorised'],
      [refs.aborted, 'TypeNotAuthorised'],
      [missing, 'NoMatchingRecord'],
      [refs.deleted, 'NoMatchingRecord'],
    ]);
    expect((await call('GET', `/data?payload_references=${refs.callA},${refs.callA}`, admin)).status).toBe(400);
    const tooMany = Array.from({ length: 101 }, () => ulid()).join(',');
    expect((await call('GET', `/data?payload_references=${tooMany}`, admin)).status).toBe(400);
  });
});

describe('restore and receipts', () => {
  it('restores a deleted payload and refuses a destroyed one with a clear 409', async () => {
    const restored = await call('POST', `/payloads/${refs.deleted}/restore`, admin);
    expect(restored.status).toBe(200);
    expect(restored.body.payload_state).toBe('Processed');
    const destroyed = await call('POST', `/payloads/${refs.destroyed}/restore`, admin);
    expect(destroyed).toMatchObject({ status: 409, body: { message: expect.stringMatching(/destroyed payload cannot be restored/) } });
    expect((await call('POST', `/payloads/${refs.deleted}/restore`, admin)).status).toBe(409);
  });

  it('confirms receipts, records them in the audit, and reports refusals per reference', async () => {
    const missing = ulid();
    const result = await call('POST', '/receipts', restricted, { payload_references: [refs.callA, refs.callB, missing] });
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([
      { reference: refs.callA, ok: true },
      { reference: refs.callB, ok: false, message: 'GroupNotAuthorised' },
      { reference: missing, ok: false, message: 'NoMatchingRecord' },
    ]);
    const detail = await call('GET', `/payloads/${refs.callA}`, admin);
    expect(detail.body.receipt_confirmed_by).toBe(`app:reads-${run}`);
    const audit = await call('GET', `/payloads/${refs.callA}/audit`, admin);
    expect(audit.body.receipts).toEqual([
      { user: `app:reads-${run}`, time: detail.body.receipt_confirmed_at, actor: { reference: `app:reads-${run}`, kind: 'client-app', name: `reads-${run}` } },
    ]);
    expect((await call('POST', '/receipts', admin, { payload_references: [] })).status).toBe(400);
  });
});
