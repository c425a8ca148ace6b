import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import { keys } from '#core/store/keys.ts';
import { gapAlertKey } from '../../lambdas/completeness/public.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/public.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { record } from '../../scripts/device/recorder.ts';
import { enrol, type Simulator } from '../../scripts/device/simulator.ts';
import { DEMO_GAPS_EVENTS, DEMO_GAPS_OUTCOMES, GAPS_PHONE, seedCompleteness, type CompletenessSeedResult } from '../../scripts/local/seed/completeness.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * The demo capture completeness `npm start` seeds (scripts/local/seed/completeness.ts), run against the stack of the
 * global setup in a tenant of this run: the gaps phone first records what the demo fleet records on it (a call 32 hours
 * before and an SMS thread 5 hours before, as scripts/local/seed/fleet.ts does), then the seed drives it through the
 * device protocol, the payload pipeline and the sweep job. The outcomes, counts and alerts are what the seed's doc
 * comment promises the browser test and the demo: 2 Missing, 1 Short, 2 Captured late, 13 Captured, nothing Pending.
 */
type Json = Record<string, unknown>;
let tenant: RunTenant;
let sim: Simulator;
let phone: DeviceState;
let seeded: CompletenessSeedResult;
const GROUP = 'manchester-fx';
const USER = 'du-chloe';
const PHONE_NUMBER = `07${String(Date.now()).slice(-9)}`;
const HOUR = 3_600_000;
const now = Date.now();
const CASE_TIMEOUT = 60_000;

/** Every entry of the gaps phone, through the entries endpoint (all pages). */
async function entries(): Promise<Json[]> {
  const found: Json[] = [];
  let cursor: string | undefined;
  do {
    const answer = await tenant.call('GET', `/completeness/entries?device_reference=${phone.device_reference}&limit=50${cursor === undefined ? '' : `&cursor=${cursor}`}`, tenant.admin);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    found.push(...(answer.body.data as Json[]));
    cursor = answer.body.cursor as string | undefined;
  } while (cursor !== undefined);
  return found;
}

async function gapAlert(day: string) {
  const pointer = await tenant.deps.table.get(keys.alert.scopedKey(tenant.client, 'ops', gapAlertKey(phone.device_reference, day)), { consistent: true });
  if (pointer === undefined) return undefined;
  const alert = await tenant.deps.table.get(keys.alert.key(tenant.client, readAlertKey(pointer).alert_reference), { consistent: true });
  return alert === undefined ? undefined : readAlert(alert);
}

beforeAll(async () => {
  tenant = await createRunTenant('cmpseed');
  const { client, deps } = tenant;
  await deps.table.put({
    ...keys.deviceUser.item(client, USER, GROUP),
    client,
    device_user_reference: USER,
    group: GROUP,
    first_name: 'Chloe',
    surname: 'Carter',
    services: ['calls', 'sms', 'mms'],
    expected_device_count: 1,
    is_active: true,
    is_legacy: false,
  });
  await deps.table.put({ ...keys.phoneNumber.item(client, PHONE_NUMBER), client, phone_number: PHONE_NUMBER, device_user_reference: USER });
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (name) => (await deviceKeysOf(deps, name)).enrolmentKey };
  const enrolled = await enrol(sim, { name: GAPS_PHONE, client, phoneNumbers: [PHONE_NUMBER] });
  expect(enrolled.result.status).toBe(200);
  phone = enrolled.state;
  // What the demo fleet's media seed records on this phone before the completeness seed runs.
  for (const [type, hoursAgo] of [['Call', 32], ['SMS', 5]] as const) {
    for (const result of await record(sim, phone, type, { at: new Date(now - hoursAgo * HOUR), seed: 2, otherNumber: '+447700900202' })) expect(result.state).toBe('processed');
  }
  seeded = await seedCompleteness({ client, sim, deps, phones: new Map([[GAPS_PHONE, phone]]), now });
}, 300_000);

afterAll(async () => tenant?.close());

describe('demo completeness seed', () => {
  it('reports the whole ledger of the gaps phone: 12 calls and 6 messages, nothing left on the phone or held back', () => {
    expect(seeded.gapsDevice).toBe(phone.device_reference);
    expect(seeded.reported[GAPS_PHONE]).toBe(18);
    expect(phone.ledger).toEqual([]);
    expect(phone.held).toEqual([]);
  });

  it('ends each entry with the outcome the seed promises: the dropped calls Missing, the shortened one Short, the held one Captured late', async () => {
    const listed = await entries();
    const byOutcome: Record<string, number> = {};
    for (const entry of listed) byOutcome[String(entry.outcome)] = (byOutcome[String(entry.outcome)] ?? 0) + 1;
    expect(byOutcome).toEqual(DEMO_GAPS_OUTCOMES);
    expect(listed.filter((entry) => entry.payload_type === 'Call')).toHaveLength(12);
    const outcomeOf = (number: string) => listed.filter((entry) => entry.phone_number === number).map((entry) => entry.outcome);
    for (const event of DEMO_GAPS_EVENTS.filter((each) => each.gap !== undefined)) {
      const expected = event.gap === 'drop' ? 'Missing' : event.gap === 'late' ? 'Captured late' : 'Short';
      expect(outcomeOf(event.otherNumber), event.otherNumber).toEqual([expected]);
    }
    // The fleet's call of 32 hours before was uploaded past its grace period: late, as the seed's comment says.
    expect(outcomeOf('+447700900202')).toContain('Captured late');
    const short = listed.find((entry) => entry.outcome === 'Short');
    expect(Number(short?.duration) - Number(short?.recording_duration)).toBe(45);
  }, CASE_TIMEOUT);

  it('counts the device over its days exactly, with the share complete of 15 in 18', async () => {
    const answer = await tenant.call('GET', `/devices/${phone.device_reference}/completeness`, tenant.admin);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const totals = { expected: 0, captured: 0, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0 };
    for (const row of answer.body.data as Json[]) for (const name of Object.keys(totals) as Array<keyof typeof totals>) totals[name] += Number(row[name] ?? 0);
    expect(totals).toEqual({ expected: 18, captured: 13, captured_late: 2, short: 1, pending: 0, missing: 2, unexpected: 0 });
  }, CASE_TIMEOUT);

  it('raises the device a gap alert for each UTC day with a Missing or Short call', async () => {
    // The late call was Missing (alerted) until its recording came.
    const gapDays = new Set(DEMO_GAPS_EVENTS.filter((event) => event.gap !== undefined).map((event) => new Date(now - event.hoursAgo * HOUR).toISOString().slice(0, 10)));
    for (const day of gapDays) expect(await gapAlert(day), day).toMatchObject({ alert_type: 'DeviceAlert', alert_key_type: 'Scoped' });
  }, CASE_TIMEOUT);
});
