import { createHash, randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf, openKekForDevice, sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The payload pipeline end to end: a real device enrols, opens its KEK, PUTs sealed media to the pre-signed URL and
 * registers it; s3rver's object event runs the processing in the stack (retried until the registration is there).
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
    body: JSON.stringify({ ulid_encrypted: sealed, phone_numbers: [`07${String(Date.now()).slice(-9)}`], imeis: [imei], installation_id: run }),
  });
  expect(auth.status).toBe(200);
  token = ((await auth.json()) as { access_token: string }).access_token;
  const keyAnswer = await call('GET', '/keys');
  keyId = keyAnswer.body.key_id as string;
  kek = openKekForDevice((await deviceKeysOf(deps, 'demo')).enrolmentKey, 'demo', keyId, keyAnswer.body.kek as string);
});

type Sealed = ReturnType<typeof sealPayload>;

/** Upload URL, PUT, registration, then waits until the device's state read is no longer pending. */
async function send(type: string, content: Buffer, meta: unknown, tamper?: (sealed: Sealed) => void): Promise<{ reference: string; state: string }> {
  const sealed = sealPayload({ kek, client: 'demo', keyId, content, meta });
  tamper?.(sealed);
  // The link is bound to the size and SHA-256 of the bytes sent (a tampered body is declared as it is sent).
  const sha256 = createHash('sha256').update(sealed.ciphertext).digest('hex');
  const urlAnswer = await call('POST', '/payloads/upload_url', { payload_type: type, size: sealed.ciphertext.length, sha256 });
  expect(urlAnswer.status).toBe(200);
  const reference = urlAnswer.body.payload_reference as string;
  const headers = urlAnswer.body.upload_headers as Record<string, string>;
  const put = await fetch(urlAnswer.body.upload_url as string, { method: 'PUT', headers, body: new Uint8Array(sealed.ciphertext) });
  expect(put.status).toBe(200);
  const registration = { payload_reference: reference, payload_type: type, ...sealed.registration };
  expect((await call('POST', '/payloads', registration)).status).toBe(200);
  expect((await call('POST', '/payloads', registration)).status).toBe(200);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const state = (await call('GET', `/payloads/${reference}`)).body.state as string;
    if (state !== 'pending') return { reference, state };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`payload ${reference} still pending`);
}

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const time = '2020-05-01T10:00:00Z';
const call_meta = { payload_time: time, second_parties: [{ phone_number: '+447700900123', direction: 'O' }] };

describe('payload pipeline', () => {
  it('a call, an SMS and a photo reach Processed; a redelivered event changes nothing', async () => {
    const audio = randomBytes(200_000);
    const callSent = await send('Call', audio, call_meta);
    const sms = await send('SMS', Buffer.from('hi'), { payload_time: time, direction: 'I', thread_id: `t-${run}`, message_parties: [{ phone_number: '+447700900124' }] });
    const photo = await send('Photo', randomBytes(30_000), { payload_time: time });
    expect([callSent.state, sms.state, photo.state]).toEqual(['processed', 'processed', 'processed']);
    const item = await deps.table.get(keys.payload.key('demo', callSent.reference));
    expect(item).toMatchObject({ payload_state: 'Processed', second_party_numbers: '+447700900123', is_late: true });
    expect(item?.metrics_pending).toBeUndefined();
    const processed = await deps.blobs.get('processed', payloadObjectKey('demo', callSent.reference));
    const parts: Buffer[] = [];
    for await (const chunk of processed?.body ?? []) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).equals(audio)).toBe(true);
    expect(await processPayload(deps, 'demo', callSent.reference)).toBe('unchanged');
    expect(await deps.table.get(keys.payload.key('demo', callSent.reference))).toEqual(item);
    expect((await deps.table.get(keys.payload.key('demo', sms.reference)))?.thread_id).toBe(`t-${run}`);

    // The portal reads what the pipeline wrote: decrypted meta, a data link to the same bytes, the SMS thread.
    const admin = (await signIn('admin@demo.test')).id_token;
    const portal = async (path: string) => {
      const response = await api(`/api/v1/demo${path}`, { headers: bearer(admin) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const detail = await portal(`/payloads/${callSent.reference}`);
    expect(detail).toMatchObject({ status: 200, body: { payload_state: 'Processed', meta: { second_parties: [{ phone_number: '+447700900123' }] } } });
    const data = await portal(`/payloads/${callSent.reference}/data?action=play`);
    expect(data.status).toBe(200);
    const played = await fetch(data.body.s3_url as string);
    expect(Buffer.from(await played.arrayBuffer()).equals(audio)).toBe(true);
    const thread = await portal(`/devices/${String(item?.device_reference)}/sms/${encodeURIComponent(`t-${run}`)}`);
    expect(thread.status).toBe(200);
    expect((thread.body.data as Array<{ payload_reference: string }>).map((entry) => entry.payload_reference)).toEqual([sms.reference]);
  });

  it('tampered ciphertext, a wrong DEK, a wrong checksum and an EICAR body never reach Processed', async () => {
    const results = [
      await send('Call', randomBytes(5000), call_meta, (sealed) => void (sealed.ciphertext[10] = (sealed.ciphertext[10] as number) ^ 1)),
      await send('Call', randomBytes(5000), call_meta, (sealed) => {
        sealed.ciphertext = sealPayload({ kek, client: 'demo', keyId, content: randomBytes(5000), meta: {} }).ciphertext;
      }),
      await send('Call', randomBytes(5000), call_meta, (sealed) => void (sealed.registration.checksum = 'f'.repeat(64))),
      await send('Interview', Buffer.from(EICAR), { payload_time: time }),
    ];
    expect(results.map((result) => result.state)).toEqual(['failed', 'failed', 'failed', 'failed']);
    const states = [];
    for (const result of results) {
      const item = await deps.table.get(keys.payload.key('demo', result.reference));
      // The alert flag is claimed (the PayloadAlert raised) and no plaintext was released.
      expect(item?.alert_pending).toBeUndefined();
      expect(await deps.blobs.head('processed', payloadObjectKey('demo', result.reference))).toBeUndefined();
      states.push(item?.payload_state);
    }
    expect(states).toEqual(['Failed', 'Failed', 'Failed', 'Quarantined']);
  });
});
