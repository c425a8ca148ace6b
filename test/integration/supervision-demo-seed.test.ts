import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneNumberToItem } from '#core/store/entities/phone-number.ts';
import { readSupervisionPolicy } from '#core/store/entities/supervision-policy.ts';
import { keys } from '#core/store/keys.ts';
import { compileLexicon, readLexicon } from '#shared/supervision/lexicon/index.ts';
import { isSampled, samplingValue } from '#shared/supervision/sampling.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { record } from '../../scripts/device/recorder.ts';
import { enrol, type Simulator } from '../../scripts/device/simulator.ts';
import {
  CALL_SAMPLING_POLICY,
  CONDUCT_RISK_POLICY,
  DEMO_SUPERVISED_RECORDINGS,
  DEMO_SUPERVISION_POLICIES,
  seedSupervision,
  type SupervisionSeedResult,
} from '../../scripts/local/seed/supervision.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { stack } from './support/stack.ts';

/**
 * The demo supervision `npm start` seeds (scripts/local/seed/supervision.ts), run against the stack of the global setup
 * in a tenant of this run, so its tenant-wide policies raise nothing on what other test files record in `demo`: the
 * policies go in through the API, the phones' messages through the device simulator and the payload pipeline, and the
 * queue then holds exactly the items the real evaluation raised at processing (the disclaimer alone raises none); the
 * calls recorded before the policies existed are drawn by the apply run of the sampling policy by their keyed hash,
 * and the daily top-up gives each person their one call a day.
 */
type Json = Record<string, unknown>;
let tenant: RunTenant;
let admin: string;
let sim: Simulator;
const phones = new Map<string, DeviceState>();
/** Calls recorded before the seed, as the demo fleet's media are. */
const calls: string[] = [];
let seeded: SupervisionSeedResult;
const CASE_TIMEOUT = 120_000;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const DEMO_LEXICON = compileLexicon(
  DEMO_SUPERVISION_POLICIES.flatMap(({ policy_reference, request }) => (request.kind === 'Sampling' ? [] : [{ policy_reference, kind: request.kind, terms: request.terms }])),
);

const call = async (method: string, path: string, body?: unknown) => tenant.call(method, path, admin, body);

beforeAll(async () => {
  tenant = await createRunTenant('supseed');
  admin = await portalTokenFor(tenant.client, { sub: `${tenant.client}-admin`, email: `admin@${tenant.client}.test`, groups: ['admin'] });
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(tenant.deps, client)).enrolmentKey };
  expect((await call('PUT', '/groups/desk', { tags: [] })).status).toBeLessThan(300);
  const names = [...new Set(DEMO_SUPERVISED_RECORDINGS.map((recording) => recording.phone))];
  for (const [index, name] of names.entries()) {
    const person = name.replace(/^demo-/, '');
    const reference = `du-${person}`;
    const number = `07700${String(Date.now()).slice(-5)}${index}`.slice(0, 12);
    const onboarded = await call('POST', `/users/${reference}`, { group: 'desk', services: ['calls', 'sms'], expected_device_count: 1, email: `${person}@${tenant.client}.test`, first_name: person, surname: 'Seed' });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBeLessThan(300);
    await tenant.deps.table.put(phoneNumberToItem(tenant.client, { client: tenant.client, phone_number: number, device_user_reference: reference }));
    const { state, result } = await enrol(sim, { name, client: tenant.client, phoneNumbers: [number] });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    phones.set(name, state);
    // Yesterday (UTC), a day that is over: the seed's daily top-up runs for it.
    const [made] = await record(sim, state, 'Call', { at: new Date(Date.parse(`${yesterday}T12:00:00Z`) + index * 60_000) });
    expect(made?.state).toBe('processed');
    calls.push(String(made?.payload_reference));
  }
  seeded = await seedSupervision({ apiUrl: stack().apiUrl, client: tenant.client, token: admin, sim, deps: tenant.deps, phones, now: Date.now() });
}, 300_000);

afterAll(async () => tenant?.close());

describe('demo supervision seed', () => {
  it('creates the three demo policies through the API', async () => {
    const listed = await call('GET', '/supervision/policies');
    expect(listed.status).toBe(200);
    const policies = listed.body.data as Json[];
    expect(policies.map((policy) => `${String(policy.policy_reference)}:${String(policy.kind)}`).sort()).toEqual(['call-sampling:Sampling', 'conduct-risk:Lexicon', 'disclaimer:Ignore']);
  });

  it('raises an item at processing for each message holding a term, its hit pointing at the term; the disclaimer alone raises none', async () => {
    for (const [index, recording] of DEMO_SUPERVISED_RECORDINGS.entries()) {
      const reference = seeded.references[index];
      const answer = await call('GET', `/supervision/items/${String(reference)}`);
      // The one conduct-risk hit, where the engine finds it in the text as sent (the Ignore policy applied); none for the disclaimer alone.
      const [expected, ...more] = readLexicon(DEMO_LEXICON, recording.text).hits;
      expect(more).toEqual([]);
      if (expected === undefined) {
        expect(answer.status, recording.text).toBe(404);
        continue;
      }
      expect(answer.status, `${recording.text}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body).toMatchObject({ item_reference: reference, payload_type: recording.type, state: 'Open', device_user_reference: `du-${recording.phone.replace(/^demo-/, '')}` });
      expect(answer.body.hits).toEqual([
        expect.objectContaining({ policy_reference: CONDUCT_RISK_POLICY, kind: 'Lexicon', term: expected.term, field: recording.type === 'SMS' ? 'text' : 'notes', matches: expected.matches }),
      ]);
      // The item keeps offsets, never the text.
      expect(JSON.stringify(answer.body)).not.toContain(recording.text);
      expect((answer.body.history as Json[]).map((entry) => entry.event)).toEqual(['raise']);
    }
  }, CASE_TIMEOUT);

  it('applies the sampling policy to the seeded days and tops each person up to one a day: every call is in the queue, by its hash', async () => {
    let policy: Json = {};
    for (let poll = 0; poll < 300; poll += 1) {
      policy = (await call('GET', `/supervision/policies/${CALL_SAMPLING_POLICY}`)).body;
      if ((policy.last_apply as Json | undefined)?.state !== 'Running') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(policy.last_apply).toMatchObject({ state: 'Completed', from: expect.stringContaining(seeded.sampledPeriod.from) });
    expect(seeded.toppedUpDays).toContain(yesterday);
    const stored = await tenant.deps.table.get(keys.supervisionPolicy.item(tenant.client, CALL_SAMPLING_POLICY));
    expect(stored).toBeDefined();
    const seed = String(readSupervisionPolicy(stored as NonNullable<typeof stored>).sampling_seed);
    // Each person made one call that day: the 10 % share picks it when its keyed value is below 0.1, else the daily
    // minimum of one tops the day up with it. Either way one sampling hit, carrying the value that decided.
    for (const reference of calls) {
      const value = samplingValue(seed, CALL_SAMPLING_POLICY, reference);
      const answer = await call('GET', `/supervision/items/${reference}`);
      expect(answer.status, `call ${reference} at ${value}`).toBe(200);
      const hits = answer.body.hits as Json[];
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ kind: 'Sampling', policy_reference: CALL_SAMPLING_POLICY, sample_value: value });
      expect(hits[0]?.is_minimum_top_up === true, `call at ${value}`).toBe(!isSampled(value, 10));
    }
    // Every recording of the period was read: the calls and the seeded messages at least.
    expect((policy.last_apply as Json).scanned).toBeGreaterThanOrEqual(calls.length + DEMO_SUPERVISED_RECORDINGS.length);
  }, CASE_TIMEOUT);
});
