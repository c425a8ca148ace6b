import { createHash, randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf, openKekForDevice, sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * An upload link is bound to what the phone declared: the body's size (a signed Content-Length) and SHA-256 (a signed
 * x-amz-checksum-sha256). Storage itself refuses another body, through the real local S3 path (the Object Lock proxy
 * in front of s3rver checks what S3 checks), so a mismatched payload is never stored, never processed.
 */
const run = ulid().toLowerCase().slice(-8);
let deps: Dependencies;
let token: string;
let kek: Buffer;
let keyId: string;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = bearer(token, body === undefined ? {} : { 'content-type': 'application/json' });
  const response = await api(`/device/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const sealed = await sealDeviceReference(deps, 'demo', ulid());
  const imei = String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000, 999_999));
  const auth = await api('/device/v1/authenticate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ulid_encrypted: sealed, phone_numbers: [`07${String(Date.now()).slice(-9)}`], imeis: [imei], installation_id: `ub-${run}` }),
  });
  expect(auth.status).toBe(200);
  token = ((await auth.json()) as { access_token: string }).access_token;
  const keyAnswer = await call('GET', '/keys');
  keyId = keyAnswer.body.key_id as string;
  kek = openKekForDevice((await deviceKeysOf(deps, 'demo')).enrolmentKey, 'demo', keyId, keyAnswer.body.kek as string);
});

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sha256Base64 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

async function put(url: string, headers: Record<string, string>, body: Uint8Array): Promise<{ status: number; code?: string }> {
  const response = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) });
  const text = await response.text();
  return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1] };
}

describe('upload links bound to the declared size and SHA-256', () => {
  it('refuses a body of another size or hash at storage, never processes it, and takes the declared one', async () => {
    const meta = { payload_time: '2026-01-05T10:00:00Z', second_parties: [{ phone_number: '+447700900125', direction: 'O' }] };
    const sealed = sealPayload({ kek, client: 'demo', keyId, content: randomBytes(20_000), meta });
    const body = new Uint8Array(sealed.ciphertext);
    const link = await call('POST', '/payloads/upload_url', { payload_type: 'Call', size: body.length, sha256: sha256Hex(body) });
    expect(link.status).toBe(200);
    const url = link.body.upload_url as string;
    const headers = link.body.upload_headers as Record<string, string>;
    expect(headers['x-amz-checksum-sha256']).toBe(sha256Base64(body));
    const signed = new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';');
    expect(signed).toEqual(expect.arrayContaining(['content-length', 'x-amz-checksum-sha256']));
    const reference = link.body.payload_reference as string;

    // Same size, other bytes, sent as declared: S3 computes the hash and refuses it.
    const flipped = Uint8Array.from(body);
    flipped[100] = (flipped[100] as number) ^ 1;
    expect(await put(url, headers, flipped)).toEqual({ status: 400, code: 'BadDigest' });
    // One byte more, or a 5 MB body, under the declared hash: the Content-Length is not the one signed.
    expect(await put(url, headers, Buffer.concat([body, Buffer.from([0])]))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    // A large body is refused before it is read, and the connection closed (as S3 does): the client may see the answer
    // or only the closed connection, mid-body. Either way it is not taken (nothing is stored: checked below).
    const large = await put(url, headers, randomBytes(5 * 1024 * 1024)).catch(() => ({ status: 0, code: 'connection closed' }));
    expect([403, 0]).toContain(large.status);
    expect(['SignatureDoesNotMatch', 'connection closed']).toContain(large.code);
    // One byte less.
    expect(await put(url, headers, body.subarray(0, body.length - 1))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    // Other bytes with their own hash claimed: the checksum header is not the one signed.
    expect(await put(url, { 'x-amz-checksum-sha256': sha256Base64(flipped) }, flipped)).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    // No checksum header at all.
    expect(await put(url, {}, body)).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });

    // Nothing was stored: the registration finds no object, and the payload waits Recorded, unprocessed.
    expect(await deps.blobs.head('raw', payloadObjectKey('demo', reference))).toBeUndefined();
    const registration = { payload_reference: reference, payload_type: 'Call', ...sealed.registration };
    expect(await call('POST', '/payloads', registration)).toEqual({ status: 200, body: { payload_reference: reference, state: 'pending' } });
    expect(await deps.table.get(keys.payload.key('demo', reference))).toMatchObject({ payload_state: 'Recorded' });
    expect(await deps.blobs.head('processed', payloadObjectKey('demo', reference))).toBeUndefined();

    // The declared body through the same link: stored, then processed.
    expect(await put(url, headers, body)).toEqual({ status: 200, code: undefined });
    let state = 'pending';
    for (let attempt = 0; attempt < 100 && state === 'pending'; attempt += 1) {
      state = (await call('GET', `/payloads/${reference}`)).body.state as string;
      if (state === 'pending') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(state).toBe('processed');
  });

  it('refuses a link request without a well-formed SHA-256', async () => {
    const missing = await call('POST', '/payloads/upload_url', { payload_type: 'Call', size: 10 });
    expect(missing.status).toBe(400);
    expect(String(missing.body.message)).toMatch(/sha256/);
    const malformed = await call('POST', '/payloads/upload_url', { payload_type: 'Call', size: 10, sha256: 'not-hex' });
    expect(malformed.status).toBe(400);
  });
});

describe('migration upload links bound to the declared size and SHA-256', () => {
  let tenant: RunTenant;
  beforeAll(async () => {
    tenant = await createRunTenant('upbind');
  });
  afterAll(async () => {
    await tenant?.close();
  });
  const header = JSON.stringify({ kind: 'verity-legacy-export', version: 1, source: 'Legacy Recorder' });

  it('refuses another file at storage, so there is nothing to import, and takes the declared one', async () => {
    const file = Buffer.from(`${header}\n${JSON.stringify({ kind: 'group', group_reference: `bound-${run}` })}\n`);
    const created = await tenant.call('POST', '/migrations', tenant.admin, { filename: 'bound.ndjson', size_bytes: file.length, sha256: sha256Hex(file) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submission = created.body as unknown as MigrationSubmission;
    expect(submission.upload_headers['x-amz-checksum-sha256']).toBe(sha256Base64(file));
    const reference = submission.migration.migration_reference;

    const other = Buffer.from(file.toString('utf8').replace(`bound-${run}`, `other-${run}`));
    expect(other.length).toBe(file.length);
    expect(await put(submission.upload_url, submission.upload_headers, other)).toEqual({ status: 400, code: 'BadDigest' });
    expect(await put(submission.upload_url, submission.upload_headers, Buffer.concat([file, Buffer.from('\n')]))).toEqual({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    const early = await tenant.call('POST', `/migrations/${reference}/start`, tenant.admin);
    expect(early.status).toBe(400);
    expect(String(early.body.message)).toMatch(/not been uploaded yet/);

    expect(await put(submission.upload_url, submission.upload_headers, file)).toEqual({ status: 200, code: undefined });
    const started = await tenant.call('POST', `/migrations/${reference}/start`, tenant.admin);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
  });

  it('refuses a malformed SHA-256 in the submission', async () => {
    const created = await tenant.call('POST', '/migrations', tenant.admin, { filename: 'bad.ndjson', size_bytes: 10, sha256: 'xyz' });
    expect(created.status).toBe(400);
    expect(String(created.body.message)).toMatch(/^body\.sha256: /);
  });
});
