import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Device commands end to end on the local stack: a portal user sends (state Sent), the device polls its own and
 * reports Acknowledged → Completed | Failed; every other move is a 409 naming the state; one device never sees nor
 * reports another's; lists filter and page with signed cursors; a deactivated device takes no commands.
 */
let deps: Dependencies;
let admin: string;
let acmeAdmin: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>> };
}

async function call(path: string, method: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await api(path, { method, headers: token === undefined ? headers : bearer(token, headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const portal = (method: string, path: string, body?: unknown, token = admin) => call(`/api/v1/demo${path}`, method, token, body);
const device = (method: string, path: string, token: string, body?: unknown) => call(`/device/v1${path}`, method, token, body);

const imei = () => String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)).slice(0, 15);

/** Enrols a fresh device of demo (unassigned) and answers its reference and device token. */
async function enrol(): Promise<{ reference: string; token: string }> {
  const reference = ulid();
  const sealed = await sealDeviceReference(deps, 'demo', reference);
  const answer = await call('/device/v1/authenticate', 'POST', undefined, { ulid_encrypted: sealed, phone_numbers: [`09${String(Date.now()).slice(-9)}`], imeis: [imei()], installation_id: ulid() });
  expect(answer.status, answer.body.message).toBe(200);
  return { reference, token: answer.body.access_token as string };
}

const references = (answer: Answer) => (answer.body.data ?? []).map((command) => command.command_reference);

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  admin = (await signIn('admin@demo.test')).id_token;
  acmeAdmin = (await signIn('admin@acme.test')).id_token;
});

describe('device commands', () => {
  it('send → poll → Acknowledged → Completed, with every refused move a 409 naming the state', async () => {
    const one = await enrol();
    const two = await enrol();
    const sent = await portal('POST', `/devices/${one.reference}/commands`, { command: 'sms_auto_response', params: { text: 'Driving', enabled: true } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ command: 'sms_auto_response', state: 'Sent', device_reference: one.reference, params: { text: 'Driving', enabled: true } });
    expect(sent.body.command_reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(typeof sent.body.raised_by).toBe('string');
    expect(typeof sent.body.sent_at).toBe('string');
    expect(sent.body.completed_at).toBeUndefined();
    const reference = sent.body.command_reference as string;

    // Only the device it was sent to sees it, and only that device can report it.
    expect(references(await device('GET', '/commands', one.token))).toEqual([reference]);
    expect(references(await device('GET', '/commands', two.token))).toEqual([]);
    const foreign = await device('PUT', `/commands/${reference}`, two.token, { state: 'Acknowledged' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Command not found');

    const acknowledged = await device('PUT', `/commands/${reference}`, one.token, { state: 'Acknowledged', message: 'on it' });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body).toMatchObject({ state: 'Acknowledged', command_reference: reference });
    expect(references(await device('GET', '/commands', one.token))).toEqual([reference]);
    const again = await device('PUT', `/commands/${reference}`, one.token, { state: 'Acknowledged' });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Command is Acknowledged');

    const completed = await device('PUT', `/commands/${reference}`, one.token, { state: 'Completed' });
    expect(completed.status).toBe(200);
    expect(completed.body.state).toBe('Completed');
    expect(typeof completed.body.completed_at).toBe('string');
    expect(references(await device('GET', '/commands', one.token))).toEqual([]);
    for (const state of ['Acknowledged', 'Completed', 'Failed']) {
      const late = await device('PUT', `/commands/${reference}`, one.token, { state });
      expect(late.status).toBe(409);
      expect(late.body.message).toContain('Command is Completed');
    }

    // Sent → Failed directly; then the admin lists (per device, by state, across devices by command).
    const second = (await portal('POST', `/devices/${one.reference}/commands`, { command: 'sync_data' })).body.command_reference as string;
    const failed = await device('PUT', `/commands/${second}`, one.token, { state: 'Failed' });
    expect(failed.body).toMatchObject({ state: 'Failed' });
    expect(typeof failed.body.completed_at).toBe('string');
    expect(references(await portal('GET', `/devices/${one.reference}/commands`))).toEqual([second, reference]);
    expect(references(await portal('GET', `/devices/${one.reference}/commands?state=Completed`))).toEqual([reference]);
    expect((await portal('GET', `/devices/${one.reference}/commands?result_type=total`)).body).toEqual({ count: 2 });
    expect(references(await portal('GET', `/commands?device_reference=${one.reference}&command=sync_data`))).toEqual([second]);
    expect(references(await portal('GET', `/devices/${two.reference}/commands`))).toEqual([]);
  });

  it('pages with a signed cursor bound to the list, and filters by time range', async () => {
    const one = await enrol();
    const made: string[] = [];
    for (const command of ['diagnostics_upload', 'allow_power_off', 'send_verification_sms']) {
      made.unshift((await portal('POST', `/devices/${one.reference}/commands`, { command })).body.command_reference as string);
    }
    const first = await portal('GET', `/commands?device_reference=${one.reference}&limit=2`);
    expect(references(first)).toEqual(made.slice(0, 2));
    const cursor = first.body.last_key as string;
    const next = await portal('GET', `/commands?device_reference=${one.reference}&limit=2&last_key=${encodeURIComponent(cursor)}`);
    expect(references(next)).toEqual(made.slice(2));
    // The same cursor on another list, or tampered, is a 400 with the path line.
    const replay = await portal('GET', `/commands?device_reference=${one.reference}&state=Sent&limit=2&last_key=${encodeURIComponent(cursor)}`);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toContain('query.last_key: Invalid cursor');
    expect((await portal('GET', `/devices/${one.reference}/commands?limit=2&last_key=${encodeURIComponent(`${cursor}x`)}`)).status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    expect(references(await portal('GET', `/commands?device_reference=${one.reference}&from=${today}&to=${today}`))).toEqual(made);
    expect(references(await portal('GET', `/commands?device_reference=${one.reference}&to=2001-01-01`))).toEqual([]);
    const backwards = await portal('GET', `/commands?from=2030-01-02&to=2030-01-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('query.from');
    expect(references(await portal('GET', `/commands?command=diagnostics_upload&limit=100&from=${today}`))).toContain(made[2]);
  });

  it('refuses hostile input with path lines, unknown devices with 404, deactivated devices with 409', async () => {
    const one = await enrol();
    const cases: Array<[unknown, string]> = [
      [{ command: 'format_disk' }, 'body.command'],
      [{ command: 'sync_data', extra: 1 }, 'body'],
      [{ command: 'sync_data', params: { nested: { a: 1 } } }, 'body.params.nested'],
      [{ command: 'sync_data', params: { text: 'x'.repeat(1001) } }, 'body.params.text'],
      [{}, 'body.command'],
    ];
    for (const [body, path] of cases) {
      const refused = await portal('POST', `/devices/${one.reference}/commands`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toContain(path);
    }
    expect((await portal('GET', '/commands?state=Pending')).status).toBe(400);
    expect((await portal('GET', '/commands?command=rm')).status).toBe(400);
    expect((await device('PUT', '/commands/not-a-ulid', one.token, { state: 'Completed' })).status).toBe(400);
    expect((await device('PUT', `/commands/${ulid()}`, one.token, { state: 'Sent' })).status).toBe(400);
    expect((await device('PUT', `/commands/${ulid()}`, one.token, { state: 'Completed' })).status).toBe(404);
    expect((await portal('POST', `/devices/${ulid()}/commands`, { command: 'sync_data' })).status).toBe(404);
    expect((await portal('GET', `/devices/${ulid()}/commands`)).status).toBe(404);

    // Another tenant cannot send to or list demo's device.
    expect((await call(`/api/v1/demo/devices/${one.reference}/commands`, 'POST', acmeAdmin, { command: 'sync_data' })).status).toBe(403);
    expect((await call(`/api/v1/acme/devices/${one.reference}/commands`, 'POST', acmeAdmin, { command: 'sync_data' })).status).toBe(404);

    const pending = (await portal('POST', `/devices/${one.reference}/commands`, { command: 'remove_device_admin' })).body.command_reference as string;
    expect((await portal('DELETE', `/devices/${one.reference}`)).status).toBe(200);
    const refused = await portal('POST', `/devices/${one.reference}/commands`, { command: 'allow_factory_reset' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('deactivated');
    // The deactivated device's token is refused before any command logic.
    expect((await device('GET', '/commands', one.token)).status).toBe(401);
    expect((await device('PUT', `/commands/${pending}`, one.token, { state: 'Completed' })).status).toBe(401);
  });
});
