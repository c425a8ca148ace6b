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
import { waveformObjectKey } from '../../lambdas/payloads/processing/waveform-peaks.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { createTestIssuer, type TestIssuer } from '#core/testing/test-tokens.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Playing and viewing (`payloads:Play`) apart from downloading (`payloads:Download`) on the data endpoints, the
 * seeded reviewer who reviews without taking copies, one payload audit record per link given (`view` for a photo or
 * a message's content), the waveform as derived data (no audit record), and the name a download is saved under.
 * Roles are given to client apps of a test issuer, one role each; the reviewer signs in as the demo account.
 */
const run = randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase();
const client = 'demo';
const device = `dev-play-${run}`;
const deviceUser = `user-play-${run}`;
const base = `/api/v1/${client}`;
let deps: Dependencies;
let server: Server;
/** One issuer per client app: a tenant's app is picked by its token's issuer. */
const issuers = new Map<string, TestIssuer>();
let admin: string;
let reviewer: string;
const apps: Record<'playOnly' | 'downloadOnly' | 'readOnly' | 'allButPlay', string> = { playOnly: '', downloadOnly: '', readOnly: '', allButPlay: '' };

const ref = (name: string) => `${ulid()}${name}`.slice(0, 36);
const refs = { call: ref('CALL'), sms: ref('SMS'), photo: ref('PHOTO'), plain: ref('PLAIN') };
const RECORDED = '2026-11-27T07:59:30.000Z';
/** The first bytes of a PCM WAV: enough for the download's extension to read as `.wav`. */
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(32)]);

async function call(path: string, token: string) {
  const response = await api(`${base}${path}`, { headers: bearer(token) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> } };
}
async function auditOf(reference: string) {
  return ((await call(`/payloads/${reference}/audit`, admin)).body.records ?? []) as Array<{ action: string }>;
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const now = new Date().toISOString();
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(issuers.get(String(request.url).replace('/jwks/', ''))?.jwks ?? { keys: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));

  const roles: Record<keyof typeof apps, Array<{ actions_matching: string; is_denied: boolean }>> = {
    playOnly: [{ actions_matching: 'payloads:Play', is_denied: false }],
    downloadOnly: [{ actions_matching: 'payloads:Download', is_denied: false }],
    readOnly: [{ actions_matching: 'payloads:Read*', is_denied: false }],
    allButPlay: [
      { actions_matching: 'payloads:*', is_denied: false },
      { actions_matching: 'payloads:Play', is_denied: true },
    ],
  };
  for (const [name, permissions] of Object.entries(roles) as Array<[keyof typeof apps, (typeof roles)[keyof typeof apps]]>) {
    const role = `pp-${name}-${run}`;
    await deps.table.put({
      ...keys.role.item(client, role),
      client,
      role_reference: role,
      permissions: permissions.map((permission) => ({ ...permission, is_regex: false })),
      payload_types: ['Call', 'SMS', 'Photo'],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: now,
    });
    const app = `pp-${name}-${run}`;
    const issuer = await createTestIssuer(`https://${app.toLowerCase()}.example.com`, app);
    issuers.set(name, issuer);
    const jwks = `http://${TENANT_STAND_IN_HOST}:${(server.address() as AddressInfo).port}/jwks/${name}`;
    await deps.table.put({
      ...keys.clientApp.item(client, app),
      client,
      app_reference: app,
      oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: jwks },
      roles: [role],
      cidr_ranges: [],
      updated_at: now,
    });
    apps[name] = await issuer.sign({ sub: app });
  }

  await deps.table.put({
    ...keys.deviceUser.item(client, deviceUser),
    client,
    device_user_reference: deviceUser,
    first_name: 'Zoë "Al"',
    surname: "O'Brien/Archer",
    services: [],
    expected_device_count: 1,
    is_active: true,
    is_legacy: false,
    updated_at: now,
  });
  const fixture = async (reference: string, type: string, meta: Record<string, unknown>, content: Buffer, extra: Record<string, unknown> = {}) => {
    const { registration } = sealPayload({ kek, client, keyId: kekId, content, meta: { payload_time: RECORDED, ...meta } });
    await deps.table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: RECORDED, deviceReference: device, deviceUserReference: deviceUser }),
      client,
      device_reference: device,
      device_user_reference: deviceUser,
      payload_reference: reference,
      payload_type: type,
      payload_state: 'Processed',
      key_id: registration.key_id,
      encrypted_dek: registration.encrypted_dek,
      content_iv: registration.iv,
      sealed_meta: registration.meta,
      checksum: registration.checksum,
      payload_time: RECORDED,
      uploaded_at: RECORDED,
      processed_at: RECORDED,
      updated_at: now,
      is_late: false,
      is_legacy: false,
      ...extra,
    });
    await deps.blobs.put('processed', payloadObjectKey(client, reference), content, { contentType: 'application/octet-stream' });
  };
  const party = { second_parties: [{ phone_number: '+447700900001', direction: 'O' }] };
  await fixture(refs.call, 'Call', party, WAV, { waveform_peaks: true });
  await deps.blobs.put('processed', waveformObjectKey(client, refs.call), Buffer.from(JSON.stringify({ version: 1, sample_rate: 8000, channels: 1, duration: 1, peaks_per_second: 2, peaks: [10, 200] })), {
    contentType: 'application/json',
  });
  await fixture(refs.plain, 'Call', party, Buffer.from('#!AMR\n'));
  await fixture(refs.sms, 'SMS', { direction: 'I', message_parties: [{ phone_number: '+447700900003' }] }, Buffer.from('Meet at nine'));
  await fixture(refs.photo, 'Photo', {}, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));

  admin = (await signIn('admin@demo.test')).id_token;
  reviewer = (await signIn('reviewer@demo.test')).id_token;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('playing and viewing apart from downloading', () => {
  it('asks payloads:Play for play and view, payloads:Download for download, and says so in a refusal', async () => {
    expect((await call(`/payloads/${refs.call}/data?action=play`, apps.playOnly)).status).toBe(200);
    expect((await call(`/payloads/${refs.sms}/data?action=view`, apps.playOnly)).status).toBe(200);
    const refused = await call(`/payloads/${refs.call}/data?action=download`, apps.playOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/payloads:Download/);
    // The spec's default action is download: asking for no action is a download.
    expect((await call(`/payloads/${refs.call}/data`, apps.playOnly)).status).toBe(403);
    expect((await call(`/data?payload_references=${refs.call}&action=download`, apps.playOnly)).status).toBe(403);
    expect((await call(`/data?payload_references=${refs.call}&action=view`, apps.playOnly)).body.data?.[0]?.status).toBe('Ok');

    const readOnly = await call(`/payloads/${refs.call}/data?action=play`, apps.readOnly);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toMatch(/payloads:Play/);
    expect((await call(`/payloads/${refs.call}/data?action=download`, apps.readOnly)).status).toBe(403);
  });

  it('lets a role that may download play too (download includes play), unless it denies playing itself', async () => {
    expect((await call(`/payloads/${refs.call}/data?action=play`, apps.downloadOnly)).status).toBe(200);
    expect((await call(`/payloads/${refs.call}/data?action=download`, apps.downloadOnly)).status).toBe(200);
    expect((await call(`/payloads/${refs.call}/data?action=play`, apps.allButPlay)).status).toBe(403);
    expect((await call(`/payloads/${refs.call}/data?action=download`, apps.allButPlay)).status).toBe(200);
  });

  it('the seeded reviewer plays, views and reads, comments and confirms receipts, and downloads nothing', async () => {
    expect((await call(`/payloads/${refs.call}/data?action=play`, reviewer)).status).toBe(200);
    expect((await call(`/payloads/${refs.photo}/data?action=view`, reviewer)).status).toBe(200);
    expect((await call(`/payloads/${refs.sms}/data?action=view`, reviewer)).status).toBe(200);
    expect((await call(`/payloads/${refs.sms}`, reviewer)).status).toBe(200);
    expect((await call(`/payloads/${refs.call}/waveform`, reviewer)).status).toBe(200);
    expect((await call(`/payloads/${refs.call}/data?action=download`, reviewer)).status).toBe(403);
    expect((await call(`/data?payload_references=${refs.call},${refs.sms}&action=download`, reviewer)).status).toBe(403);

    const headers = bearer(reviewer, { 'content-type': 'application/json' });
    const comment = await api(`${base}/payloads/${refs.sms}/comments`, { method: 'POST', headers, body: JSON.stringify({ message: `reviewed ${run}` }) });
    expect(comment.status).toBe(200);
    const receipt = await api(`${base}/receipts`, { method: 'POST', headers, body: JSON.stringify({ payload_references: [refs.sms] }) });
    expect(await receipt.json()).toEqual({ data: [{ reference: refs.sms, ok: true }] });
    // Changes no setting.
    const setting = await api(`${base}/account/defaults`, { method: 'PUT', headers, body: JSON.stringify({ role: 'reviewer' }) });
    expect(setting.status).toBe(403);
    const role = (await call('/roles/reviewer', reviewer)).body;
    expect(role.description).toBe('Reviews everything: plays, views, comments and confirms receipts; downloads nothing and changes no setting');
  });
});

describe('the payload audit: one record per link given, none for derived data', () => {
  it('writes one "view" for a photo opened, one "play" for a play, and nothing for its waveform', async () => {
    const photoBefore = await auditOf(refs.photo);
    const viewed = await call(`/payloads/${refs.photo}/data?action=view`, admin);
    expect(viewed.status).toBe(200);
    expect(await (await fetch(String(viewed.body.s3_url))).arrayBuffer()).toHaveProperty('byteLength', 6);
    const photoAfter = await auditOf(refs.photo);
    expect(photoAfter.slice(photoBefore.length).map((record) => record.action)).toEqual(['view']);

    const callBefore = await auditOf(refs.call);
    const waveform = await call(`/payloads/${refs.call}/waveform`, admin);
    expect(waveform.status).toBe(200);
    expect(await (await fetch(String(waveform.body.peaks_url))).json()).toMatchObject({ peaks: [10, 200] });
    expect(await auditOf(refs.call)).toHaveLength(callBefore.length);
    expect(waveform.body).not.toHaveProperty('s3_url');

    const played = await call(`/payloads/${refs.call}/data?action=play`, admin);
    expect(played.body).not.toHaveProperty('peaks_url');
    expect((await auditOf(refs.call)).slice(callBefore.length).map((record) => record.action)).toEqual(['play']);
  });

  it('refuses the waveform without payloads:Play, and answers 404 for a recording without peaks', async () => {
    expect((await call(`/payloads/${refs.call}/waveform`, apps.readOnly)).status).toBe(403);
    expect((await call(`/payloads/${refs.call}/waveform`, apps.downloadOnly)).status).toBe(200);
    const none = await call(`/payloads/${refs.plain}/waveform`, admin);
    expect(none.status).toBe(404);
  });
});

describe('a download is saved under a name that says what it is', () => {
  it('names kind, person, UTC time and reference, with the extension of its content', async () => {
    const download = await call(`/payloads/${refs.call}/data?action=download`, admin);
    const url = new URL(String(download.body.s3_url));
    const name = `call-zoe-al-o-brien-archer-20261127-0759-${refs.call}.wav`;
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
    // The stand-in S3 answers the header a browser saves the file by.
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);

    const amr = new URL(String((await call(`/payloads/${refs.plain}/data?action=download`, admin)).body.s3_url));
    expect(amr.searchParams.get('response-content-disposition')).toContain(`-${refs.plain}.amr`);
    const sms = new URL(String((await call(`/data?payload_references=${refs.sms},${refs.photo}&action=download`, admin)).body.data?.[0]?.s3_url));
    expect(sms.searchParams.get('response-content-disposition')).toContain(`filename="sms-zoe-al-o-brien-archer-20261127-0759-${refs.sms}.txt"`);
    // A play or view link shows in place: no attachment.
    const played = new URL(String((await call(`/payloads/${refs.call}/data?action=play`, admin)).body.s3_url));
    expect(played.searchParams.get('response-content-disposition')).toBeNull();
  });
});
