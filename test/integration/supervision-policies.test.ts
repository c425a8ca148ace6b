import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPayload, payloadToItem } from '#core/store/entities/payload.ts';
import { readUserActivity } from '#core/store/entities/user-activity.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { SUPERVISION_TERMS_MAX } from '#shared/constants/supervision.ts';
import { isSampled, samplingValue } from '#shared/supervision/sampling.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { superviseProcessed, supervisionApplyJob, supervisionDailyJob } from '../../lambdas/supervision/public.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';

/**
 * Supervision policies on the local stack (DynamoDB Local, s3rver, the local OIDC provider's keys, the stack's
 * in-process jobs): CRUD and hostile bodies through the API as a run tenant's admin; recordings sealed, registered and
 * processed for real, whose text raises review items with the term's offsets (and an ignore policy's disclaimer
 * none); a preview and an apply over the period; the daily sampling minimum. A second run tenant sees nothing.
 */
let tenant: RunTenant;
let other: RunTenant;
let admin: string;
let otherAdmin: string;

type Body = Record<string, unknown> & { data?: Array<Record<string, unknown>>; message?: string; last_apply?: Record<string, unknown> };
const as = async (token: string, method: string, path: string, body?: unknown, on: RunTenant = tenant) => {
  const answer = await on.call(method, path, token, body);
  return { status: answer.status, body: answer.body as Body };
};

const lexicon = (terms: string[], extra: Record<string, unknown> = {}) => ({ kind: 'Lexicon', terms, scope: { payload_types: ['SMS', 'MMS', 'RCS', 'Interview'] }, ...extra });

/** A recording `minutesAgo` minutes ago on `dev-sup`, sealed, uploaded, registered and processed here; its reference. */
async function processed(type: 'SMS' | 'Interview' | 'Call', content: string, meta: Record<string, unknown>, minutesAgo = 60): Promise<string> {
  const { client, deps } = tenant;
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const reference = ulid();
  const payloadTime = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const sealed = sealPayload({ kek, client, keyId: kekId, content: Buffer.from(content, 'utf8'), meta: { payload_time: payloadTime, ...meta } });
  await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference: 'dev-sup' }, { payload_reference: reference, payload_type: type, ...sealed.registration });
  await processPayload(deps, client, reference);
  expect(readPayload((await deps.table.get(keys.payload.key(client, reference)))!).payload_state).toBe('Processed');
  return reference;
}
const sms = (text: string, minutesAgo?: number) => processed('SMS', text, { direction: 'O', message_parties: [{ phone_number: '+447700900321' }] }, minutesAgo);

const item = (reference: string) => as(admin, 'GET', `/supervision/items/${reference}`);
const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  tenant = await createRunTenant('suppol');
  other = await createRunTenant('suppolx');
  admin = await portalTokenFor(tenant.client, { sub: `${tenant.client}-admin`, email: `admin@${tenant.client}.test`, groups: ['admin'] });
  otherAdmin = await portalTokenFor(other.client, { sub: `${other.client}-admin`, email: `admin@${other.client}.test`, groups: ['admin'] });
  // The recording device and its holder (registration reads them from the device item).
  const { client, deps } = tenant;
  await deps.table.put({ ...keys.deviceUser.item(client, 'du-sup', 'north'), client, device_user_reference: 'du-sup', group: 'north', is_active: true, services: [], updated_at: new Date().toISOString() });
  await deps.table.put({ ...keys.device.item(client, 'dev-sup', 'du-sup', 'north'), client, device_reference: 'dev-sup', device_user_reference: 'du-sup', group: 'north' });
});

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

describe('supervision policies', () => {
  it('creates, reads, lists, replaces and deletes a policy; version and seed as designed; 404 and 409 where due', async () => {
    const created = await as(admin, 'POST', '/supervision/policies/crud-words', lexicon(['guarantee'], { description: 'Promises' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ policy_reference: 'crud-words', kind: 'Lexicon', is_enabled: true, terms: ['guarantee'], review_days: 7, policy_version: 1, updated_by: `${tenant.client}-admin` });
    const seed = created.body.sampling_seed as string;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await as(admin, 'POST', '/supervision/policies/crud-words', lexicon(['other']))).toMatchObject({ status: 409, body: { message: 'A supervision policy with this reference already exists' } });

    const replaced = await as(admin, 'PUT', '/supervision/policies/crud-words', lexicon(['guarantee', 'risk free'], { review_days: 3 }));
    expect(replaced.body).toMatchObject({ policy_version: 2, sampling_seed: seed, terms: ['guarantee', 'risk free'], review_days: 3 });
    expect(replaced.body.description).toBeUndefined();
    expect((await as(admin, 'GET', '/supervision/policies/crud-words')).body).toMatchObject({ policy_version: 2, sampling_seed: seed });
    expect(await as(admin, 'PUT', '/supervision/policies/crud-words', { ...lexicon(['x']), policy_reference: 'other-one' })).toMatchObject({
      status: 400,
      body: { message: "body.policy_reference: Must equal the path's policy_reference (crud-words) or be left out" },
    });

    expect((await as(admin, 'POST', '/supervision/policies/crud-sample', { kind: 'Sampling', sample_percent: 2.5, scope: { payload_types: ['Call'] } })).status).toBe(200);
    const listed = await as(admin, 'GET', '/supervision/policies?starts_with=crud-');
    expect(listed.body.data?.map((policy) => policy.policy_reference)).toEqual(['crud-sample', 'crud-words']);

    for (const [method, body] of [['GET', undefined], ['PUT', lexicon(['x'])], ['DELETE', undefined]] as const) {
      expect(await as(admin, method, '/supervision/policies/no-such-policy', body)).toMatchObject({ status: 404, body: { message: 'Supervision policy not found' } });
    }

    // Another tenant sees none of it, by reference or in its list, and cannot change it.
    expect((await as(otherAdmin, 'GET', '/supervision/policies/crud-words', undefined, other)).status).toBe(404);
    expect((await as(otherAdmin, 'GET', '/supervision/policies', undefined, other)).body.data).toEqual([]);
    expect((await as(otherAdmin, 'DELETE', '/supervision/policies/crud-words', undefined, other)).status).toBe(404);
    expect((await as(admin, 'GET', '/supervision/policies/crud-words')).status).toBe(200);

    expect(await as(admin, 'DELETE', '/supervision/policies/crud-words')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await as(admin, 'DELETE', '/supervision/policies/crud-sample')).status).toBe(200);
    expect((await as(admin, 'GET', '/supervision/policies/crud-words')).status).toBe(404);

    // Each change is in the activity trail, naming the policy.
    const page = await tenant.deps.table.query({ ...keys.userActivity.list(tenant.client), descending: true, limit: 50 });
    const actions = page.items
      .map(readUserActivity)
      .filter((record) => record.parameters?.policy_reference === 'crud-words' && record.status_code === 200)
      .map((record) => record.action);
    expect(actions.filter((action) => action === 'supervision:UpdatePolicy').length).toBe(2);
    expect(actions).toContain('supervision:DeletePolicy');
  });

  it('answers hostile bodies with a 400 naming each problem, never a 5xx', async () => {
    let nested: unknown = 'guarantee';
    for (let depth = 0; depth < 200; depth += 1) nested = [nested];
    const cases: Array<[string, unknown]> = [
      ['{}', {}],
      ['not JSON', '{"kind":'],
      ['no terms', lexicon([])],
      ['too many terms', lexicon(Array.from({ length: SUPERVISION_TERMS_MAX + 1 }, (_, index) => `term${index}`))],
      ['a huge term', lexicon(['x'.repeat(100_000)])],
      ['an empty term', lexicon([''])],
      ['a nested term', lexicon([nested as string])],
      ['an object for a term', lexicon([{ $regex: '.*' } as unknown as string])],
      ['a repeated term', lexicon(['Guarantee', 'guarantee '])],
      ['terms on a sampling policy', { kind: 'Sampling', sample_percent: 5, terms: ['x'] }],
      ['a share out of range', { kind: 'Sampling', sample_percent: 101 }],
      ['a share of finer grain', { kind: 'Sampling', sample_percent: 0.05 }],
      ['an unknown kind', { kind: 'Regex', terms: ['.*'] }],
      ['an unknown field', { ...lexicon(['x']), __proto__: { admin: true }, extra: 1 }],
      ['a group regex the evaluator cannot read', lexicon(['x'], { scope: { payload_types: ['SMS'], group_conditions: [{ names_matching: '(a+)+(?<=b)', is_regex: true }] } })],
      ['no payload types', lexicon(['x'], { scope: { payload_types: [] } })],
    ];
    for (const [why, body] of cases) {
      const answer = await as(admin, 'POST', '/supervision/policies/hostile', body);
      expect(answer.status, `${why}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(400);
      for (const line of String(answer.body.message).split('\n')) expect(line, why).toMatch(/^body(\.[\w[\]]+)*: /);
    }
    // Regex-like terms are words and symbols to the engine, never patterns: taken literally or refused, never a 5xx.
    const regexLike = await as(admin, 'POST', '/supervision/policies/regex-like', lexicon(['(a+)+$', '.*', '[a-z]+', 'a{1000}']));
    expect([200, 400], JSON.stringify(regexLike.body)).toContain(regexLike.status);
    if (regexLike.status === 400) for (const line of String(regexLike.body.message).split('\n')) expect(line).toMatch(/^body\.terms\.\d+: /);
    else expect((await as(admin, 'DELETE', '/supervision/policies/regex-like')).status).toBe(200);
    const preview = await as(admin, 'POST', '/supervision/policies/hostile/preview', { policy: lexicon(['x']), from: today(), to: '2020-01-01' });
    expect(preview).toMatchObject({ status: 400, body: { message: 'body.from: Must not be after to' } });
    const mismatch = await as(admin, 'POST', '/supervision/policies/hostile/preview', { policy: { ...lexicon(['x']), policy_reference: 'other' }, from: today(), to: today() });
    expect(mismatch).toMatchObject({ status: 400, body: { message: "body.policy.policy_reference: Must equal the path's policy_reference (hostile) or be left out" } });
    expect((await as(admin, 'POST', '/supervision/policies/no-such-policy/apply', { from: today(), to: today() })).status).toBe(404);
    expect((await as(admin, 'GET', '/supervision/policies/hostile')).status).toBe(404);
  });

  it('raises an item with the term\'s offsets when a processed message holds a term, none for a disclaimer, once however often processed', async () => {
    expect((await as(admin, 'POST', '/supervision/policies/promises', lexicon(['guarantee', 'risk free'], { review_days: 2 }))).status).toBe(200);
    expect((await as(admin, 'POST', '/supervision/policies/disclaimers', { kind: 'Ignore', terms: ['not a guarantee'] })).status).toBe(200);

    const text = 'We guarantee it. Past returns are not a guarantee of future results';
    const raised = await sms(text);
    const found = await item(raised);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ item_reference: raised, payload_type: 'SMS', state: 'Open' });
    expect(found.body.hits).toEqual([expect.objectContaining({ policy_reference: 'promises', kind: 'Lexicon', term: 'guarantee', field: 'text', matches: [{ start: 3, end: 12 }] })]);
    expect(text.slice(3, 12)).toBe('guarantee');
    expect(JSON.stringify(found.body)).not.toContain('Past returns');
    const due = Date.parse(found.body.due_at as string) - Date.parse(found.body.raised_at as string);
    expect(due).toBe(2 * 86_400_000);

    const disclaimer = await sms('Past returns are not a guarantee of future results');
    expect((await item(disclaimer)).status).toBe(404);

    // Supervision running again for the same recording (a run retried after its hits were recorded) adds nothing,
    // and a redelivered event for the Processed recording does not run it.
    const stored = readPayload((await tenant.deps.table.get(keys.payload.key(tenant.client, raised)))!);
    expect(await superviseProcessed(tenant.deps, tenant.client, stored, {})).toBe(0);
    expect(await processPayload(tenant.deps, tenant.client, raised)).toBe('unchanged');
    const again = await item(raised);
    expect(again.body).toMatchObject({ item_version: found.body.item_version, hits: found.body.hits });

    // An interview's notes are read too; the item says where the term was.
    const interview = await processed('Interview', 'audio', { payload_notes: 'Client asked for a guarantee' });
    expect((await item(interview)).body.hits).toEqual([expect.objectContaining({ policy_reference: 'promises', field: 'notes', matches: [{ start: 19, end: 28 }] })]);

    // The other tenant sees none of these items.
    expect((await as(otherAdmin, 'GET', `/supervision/items/${raised}`, undefined, other)).status).toBe(404);
  });

  it('previews what an unsaved policy would raise over a period, and applies a saved one with its progress', async () => {
    const first = await sms('Our fund returns are safe', 30);
    const second = await sms('Returns are not a guarantee, sorry', 29);
    const plain = await sms('See you at lunch', 28);
    // Since yesterday (a run just after midnight UTC still holds the earlier test's recordings).
    const period = { from: yesterday(), to: today() };
    const preview = await as(admin, 'POST', '/supervision/policies/returns/preview', { policy: lexicon(['returns']), ...period });
    expect(preview.status).toBe(200);
    const raisedBy = new Set((preview.body.examples as Array<{ payload_reference: string }>).map((example) => example.payload_reference));
    expect(raisedBy.has(first) && raisedBy.has(second) && !raisedBy.has(plain)).toBe(true);
    expect(preview.body).toMatchObject({ is_partial: false });
    // Every message of the period holding "returns": the two here and the two of the test before ("Past returns ...").
    expect(preview.body.would_raise).toBe(4);
    expect(raisedBy.size).toBe(4);
    // Every Processed recording of the tenant so far: five messages and an interview.
    const scanned = preview.body.scanned as number;
    expect(scanned).toBe(6);
    // Nothing was written: the policy does not exist, and no item got a hit of it.
    expect((await as(admin, 'GET', '/supervision/policies/returns')).status).toBe(404);
    expect((await item(first)).status).toBe(404);

    expect((await as(admin, 'POST', '/supervision/policies/returns', lexicon(['returns'], { review_days: 5 }))).status).toBe(200);
    const started = await as(admin, 'POST', '/supervision/policies/returns/apply', period);
    expect(started.status).toBe(200);
    expect(started.body.last_apply).toMatchObject({ state: 'Running', started_by: `${tenant.client}-admin`, scanned: 0, raised: 0 });
    const finished = await applied('returns');
    expect(finished).toMatchObject({ state: 'Completed', scanned, raised: preview.body.would_raise });
    expect((await item(first)).body.hits).toEqual([expect.objectContaining({ policy_reference: 'returns', term: 'returns', matches: [{ start: 9, end: 16 }] })]);
    expect((await item(plain)).status).toBe(404);

    // Applied again: the same recordings read, nothing new raised.
    expect((await as(admin, 'POST', '/supervision/policies/returns/apply', period)).status).toBe(200);
    expect(await applied('returns')).toMatchObject({ state: 'Completed', scanned, raised: 0 });
  });

  it('refuses a second apply while one runs, and shows a run whose lease ran out as Failed', async () => {
    expect((await as(admin, 'POST', '/supervision/policies/leased', lexicon(['nothing-matches-this']))).status).toBe(200);
    const key = keys.supervisionPolicy.item(tenant.client, 'leased');
    const run = { state: 'Running', from: `${today()}T00:00:00.000Z`, to: `${today()}T23:59:59.999Z`, started_at: new Date().toISOString(), started_by: 'someone', scanned: 10, raised: 1 };
    await tenant.deps.table.update(key, { set: { last_apply: run, apply_run: run.started_at, apply_lease_until: new Date(Date.now() + 60_000).toISOString() } });
    expect(await as(admin, 'POST', '/supervision/policies/leased/apply', { from: today(), to: today() })).toMatchObject({ status: 409, body: { message: 'An apply of this policy is running; wait for it to finish' } });
    // A PUT of the policy meanwhile leaves the run as it is.
    expect((await as(admin, 'PUT', '/supervision/policies/leased', lexicon(['still-nothing']))).body.last_apply).toMatchObject({ state: 'Running', scanned: 10 });

    await tenant.deps.table.update(key, { set: { apply_lease_until: new Date(Date.now() - 1000).toISOString() } });
    expect((await as(admin, 'GET', '/supervision/policies/leased')).body.last_apply).toMatchObject({ state: 'Failed', message: 'The apply job stopped without finishing; apply the policy again' });
    expect((await as(admin, 'POST', '/supervision/policies/leased/apply', { from: today(), to: today() })).status).toBe(200);
    expect(await applied('leased')).toMatchObject({ state: 'Completed', raised: 0 });
  });

  it('samples calls by share at processing, and the daily job tops each person up to the minimum, the same on a re-run', async () => {
    expect((await as(admin, 'POST', '/supervision/policies/every-call', { kind: 'Sampling', sample_percent: 100, scope: { payload_types: ['Call'] }, review_days: 4 })).status).toBe(200);
    const call = await processed('Call', 'audio', { second_parties: [{ phone_number: '+447700900322', direction: 'O' }] });
    const sampledHit = (await item(call)).body.hits as Array<Record<string, unknown>>;
    expect(sampledHit).toEqual([expect.objectContaining({ policy_reference: 'every-call', kind: 'Sampling', matches: [] })]);
    const policy = (await as(admin, 'GET', '/supervision/policies/every-call')).body;
    expect(sampledHit[0]!.sample_value).toBe(samplingValue(policy.sampling_seed as string, 'every-call', call));
    expect((await as(admin, 'DELETE', '/supervision/policies/every-call')).status).toBe(200);

    // Yesterday's recordings of one person, as processing left them; a rare share with a minimum of 2 a day.
    const { client, deps } = tenant;
    const day = yesterday();
    await deps.table.put({ ...keys.deviceUser.item(client, 'du-dana', undefined), client, device_user_reference: 'du-dana', is_active: true, first_name: 'Dana', surname: 'Dealer', email: `dana@${client}.test`, services: [], expected_device_count: 1, is_legacy: false });
    const references = Array.from({ length: 6 }, (_, index) => `01JDAILY${client.slice(-8).toUpperCase().replace(/[^0-9A-Z]/g, '0')}${String(index).padStart(10, '0')}`);
    for (const [index, reference] of references.entries()) {
      const time = `${day}T${String(9 + index).padStart(2, '0')}:00:00.000Z`;
      await deps.table.put(
        payloadToItem(client, {
          payload_reference: reference,
          payload_type: 'Call',
          payload_state: 'Processed',
          payload_time: time,
          processed_at: time,
          device_reference: 'dev-dana',
          device_user_reference: 'du-dana',
        } as Parameters<typeof payloadToItem>[1]),
      );
    }
    const created = await as(admin, 'POST', '/supervision/policies/daily-min', { kind: 'Sampling', sample_percent: 0.1, sample_minimum: 2, scope: { payload_types: ['Call'] } });
    expect(created.status).toBe(200);
    const seed = created.body.sampling_seed as string;
    const values = references.map((reference) => ({ reference, value: samplingValue(seed, 'daily-min', reference) }));
    const bySharing = values.filter((one) => isSampled(one.value, 0.1));
    const expected = values.filter((one) => !isSampled(one.value, 0.1)).sort((a, b) => a.value - b.value).slice(0, 2 - bySharing.length);

    const run = await supervisionDailyJob(deps, { client, day });
    expect(run).toMatchObject({ outcome: 'done', day, topped_up: expected.length });
    for (const { reference, value } of expected) {
      expect((await item(reference)).body.hits).toEqual([expect.objectContaining({ policy_reference: 'daily-min', kind: 'Sampling', sample_value: value, is_minimum_top_up: true })]);
    }
    const chosen = new Set(expected.map((one) => one.reference));
    for (const reference of references.filter((one) => !chosen.has(one))) expect((await item(reference)).status).toBe(404);
    expect(await supervisionDailyJob(deps, { client, day })).toMatchObject({ outcome: 'done', topped_up: 0 });
  });

  it('goes on where its time budget stopped it, in a run it starts itself, and a superseded run stops', async () => {
    const { client, deps } = tenant;
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const references = Array.from({ length: 120 }, (_, index) => `01JAPPLY${client.slice(-8).toUpperCase().replace(/[^0-9A-Z]/g, '0')}${String(index).padStart(10, '0')}`);
    await Promise.all(
      references.map((reference, index) => {
        const time = `${day}T10:${String(Math.floor(index / 60)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}.000Z`;
        return deps.table.put(
          payloadToItem(client, { payload_reference: reference, payload_type: 'Call', payload_state: 'Processed', payload_time: time, processed_at: time, device_reference: 'dev-sup' } as Parameters<typeof payloadToItem>[1]),
        );
      }),
    );
    expect((await as(admin, 'POST', '/supervision/policies/all-calls', { kind: 'Sampling', sample_percent: 100, scope: { payload_types: ['Call'] } })).status).toBe(200);
    // A run as the API starts it (the job is driven here, its self-starts caught instead of run).
    const run = new Date().toISOString();
    const period = { from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` };
    await deps.table.update(keys.supervisionPolicy.item(client, 'all-calls'), {
      set: { last_apply: { state: 'Running', ...period, started_at: run, started_by: 'tester', scanned: 0, raised: 0 }, apply_run: run, apply_lease_until: new Date(Date.now() + 600_000).toISOString() },
    });
    const starts: Array<{ job: string; input: Record<string, unknown> }> = [];
    const jobDeps = { ...deps, jobs: { start: async (job: string, input: Record<string, unknown>) => void starts.push({ job, input }) } };
    const input = { client, policy_reference: 'all-calls', run, ...period };
    expect(await supervisionApplyJob(jobDeps, input, { pages: 1 })).toMatchObject({ outcome: 'more', scanned: 100, raised: 100 });
    expect(starts.map((start) => start.job)).toEqual(['supervision-apply']);
    expect((await as(admin, 'GET', '/supervision/policies/all-calls')).body.last_apply).toMatchObject({ state: 'Running', scanned: 100, raised: 100 });
    expect(await supervisionApplyJob(jobDeps, starts[0]!.input, { pages: 1 })).toMatchObject({ outcome: 'done', scanned: 120, raised: 120 });
    expect((await as(admin, 'GET', '/supervision/policies/all-calls')).body.last_apply).toMatchObject({ state: 'Completed', scanned: 120, raised: 120 });
    expect((await item(references[119]!)).body.hits).toEqual([expect.objectContaining({ policy_reference: 'all-calls', kind: 'Sampling' })]);
    // The ended run's input again (a duplicate delivery): it is no longer the policy's Running run, so it does nothing.
    expect(await supervisionApplyJob(jobDeps, starts[0]!.input)).toEqual({ outcome: 'superseded' });
    expect((await as(admin, 'DELETE', '/supervision/policies/all-calls')).status).toBe(200);
  });
});

/** The policy's apply run once it is no longer Running (the stack's jobs run it), polled for 30 s at most. */
async function applied(policy: string): Promise<Record<string, unknown> | undefined> {
  let run: Record<string, unknown> | undefined;
  for (let attempt = 0; attempt < 120; attempt += 1) {
    run = (await as(admin, 'GET', `/supervision/policies/${policy}`)).body.last_apply;
    if (run !== undefined && run.state !== 'Running') return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return run;
}
