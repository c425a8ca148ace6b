import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { actorName } from '../../web/src/lib/actor-name.ts';
import { signIn } from './support/sign-in.ts';
import { api, stack } from './support/stack.ts';

/**
 * One identity per person, end to end on the local stack: what admin@demo.test does (a comment, a play, a device
 * command, and the calls themselves in the activity trail) names them by one stable reference, `demo-admin`, and the
 * same actor (name and e-mail as their token carried them), which every screen shows as "Dana Admin
 * (admin@demo.test)". Provider staff acting in support mode are named by name, "support" and the request they act
 * under, in the tenant's own trail and on what they write.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;
let admin: string;
let staff: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>> };
}

async function call(path: string, method: string, authorization: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await api(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const demo = (method: string, path: string, body?: unknown, authorization = `Bearer ${admin}`) => call(`/api/v1/demo${path}`, method, authorization, body);

const DANA: Actor = { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' };

/** A processed call of this run, written straight into the table (the pipeline is not what is tested here). */
async function recording(): Promise<string> {
  const reference = randomUUID();
  const time = '2024-05-01T10:00:00.000Z';
  await deps.table.put({
    ...keys.payload.item('demo', { payloadReference: reference, payloadTime: time, deviceReference: `dev-${run}` }),
    payload_reference: reference,
    device_reference: `dev-${run}`,
    payload_type: 'Call',
    payload_state: 'Processed',
  });
  return reference;
}

/** A fresh enrolled device of demo. */
async function enrolledDevice(): Promise<string> {
  const reference = ulid();
  const sealed = await sealDeviceReference(deps, 'demo', reference);
  const imei = String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)).slice(0, 15);
  const answer = await call('/device/v1/authenticate', 'POST', undefined, { ulid_encrypted: sealed, phone_numbers: [`09${String(Date.now()).slice(-9)}`], imeis: [imei], installation_id: ulid() });
  expect(answer.status, answer.body.message).toBe(200);
  return reference;
}

/** The activity records of `person` since the test began, newest first. */
async function activitiesOf(person: string, since: string): Promise<Array<Record<string, unknown>>> {
  const page = await demo('GET', `/activities?user_id=${encodeURIComponent(person)}&from=${since}&limit=100`);
  expect(page.status, page.body.message).toBe(200);
  return page.body.data ?? [];
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  admin = (await signIn('admin@demo.test')).id_token;
  staff = (await signIn('staff@verity.test')).id_token;
});

describe('one identity per person', () => {
  it("names admin@demo.test's comment, play, command and calls by one reference and one display name", async () => {
    const since = new Date().toISOString().slice(0, 10);
    const call1 = await recording();
    const device = await enrolledDevice();

    const comment = await demo('POST', `/payloads/${call1}/comments`, { message: 'Check the opening' });
    expect(comment.status, comment.body.message).toBe(200);
    const played = await demo('GET', `/payloads/${call1}/data?action=play`);
    expect(played.status, played.body.message).toBe(200);
    const command = await demo('POST', `/devices/${device}/commands`, { command: 'sync_data' });
    expect(command.status, command.body.message).toBe(201);
    const audit = await demo('GET', `/payloads/${call1}/audit`);
    const commands = await demo('GET', `/devices/${device}/commands`);

    const named = [
      { reference: comment.body.raised_by, actor: comment.body.raised_by_actor },
      ...((audit.body.records as Array<Record<string, unknown>>) ?? []).map((record) => ({ reference: record.portal_user, actor: record.actor })),
      { reference: command.body.raised_by, actor: command.body.raised_by_actor },
      ...(commands.body.data ?? []).map((listed) => ({ reference: listed.raised_by, actor: listed.raised_by_actor })),
      ...(await activitiesOf('demo-admin', since))
        .filter((record) => JSON.stringify(record.parameters ?? {}).includes(call1) || JSON.stringify(record.parameters ?? {}).includes(device))
        .map((record) => ({ reference: record.user_id, actor: record.actor })),
    ];
    // The comment, one play record, the command (sent and listed), and the calls of this test in the trail.
    expect(named.length).toBeGreaterThanOrEqual(8);
    for (const { reference, actor } of named) {
      expect(reference).toBe('demo-admin');
      expect(actor).toEqual(DANA);
      expect(actorName(actor as Actor, reference as string)).toBe('Dana Admin (admin@demo.test)');
    }
  });

  it('names staff in support mode by name, "support" and the request, in the trail and on what they write', async () => {
    const since = new Date().toISOString().slice(0, 10);
    const call1 = await recording();
    const asked = await call('/internal/v1/clients/demo/supportaccess', 'POST', `Bearer ${staff}`, {
      role: 'admin',
      request_description: 'Checking a recording the customer asked about',
      requested_expiry: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(asked.status, asked.body.message).toBe(201);
    const request = asked.body.request_reference as string;
    expect((await demo('PUT', `/supportaccess/${request}`, { approval_state: 'approved' })).status).toBe(200);

    const support = `internal-${request} ${staff}`;
    await demo('PUT', '/terms', {}, support);
    const comment = await demo('POST', `/payloads/${call1}/comments`, { message: 'Support looked at this' }, support);
    expect(comment.status, comment.body.message).toBe(200);
    const staffActor: Actor = { reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', email: 'staff@verity.test', support_request: request };
    expect(comment.body).toMatchObject({ raised_by: 'staff:verity-staff', raised_by_actor: staffActor });

    const records = (await activitiesOf('staff:verity-staff', since)).filter((record) => record.support_reference === request);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.actor).toEqual(staffActor);
      expect(actorName(record.actor as Actor, record.user_id as string, record.support_reference as string)).toBe(`Sam Staff (support, request ${request})`);
    }
  });
});
