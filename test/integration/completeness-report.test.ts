import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerOutcome, LedgerPayloadType } from '#shared/constants/completeness.ts';
import { awaitingEntryToItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryToItem } from '#core/store/entities/ledger-entry.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';
import { keys } from '#core/store/keys.ts';
import { listCompleteness } from '../../lambdas/completeness/reports/days.ts';
import { listCompletenessEntries } from '../../lambdas/completeness/reports/entries.ts';
import { counterOperations, entryStored, unexpectedChanged, type CountedCuts } from '../../lambdas/completeness/reconcile/counter-moves.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The capture completeness reports against the local stack, in tenants of this run only (so no other test's entries
 * meet these counts). Each ledger entry is stored as intake stores one: the entry item and the ADDs to its day's
 * counter items in one transaction (the reconcile module's counter moves), and one Unexpected recording likewise.
 * Group G1 holds user U1 and phone P1; G2 holds U2 and P2. Days are in a random past year, plus one entry yesterday
 * for the default period.
 *
 *   day 1: P1 Call Captured, P1 Call Missing, P1 SMS Captured late; P2 Call Short, P2 SMS Pending
 *   day 2: P1 Call Captured, P1 SMS Unexpected (a recording no entry explains); P2 MMS Missing
 *   day 3: P2 Call Captured
 */
const year = 2001 + randomInt(0, 18);
const D1 = `${year}-05-11`;
const D2 = `${year}-05-12`;
const D3 = `${year}-05-13`;
const PERIOD = `from=${D1}&to=${D3}`;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

let tenant: RunTenant;
let other: RunTenant;
let G1: string;
let G2: string;
const U1 = 'du-one';
const U2 = 'du-two';
const P1 = 'phone-one';
const P2 = 'phone-two';
/** Tokens of client apps holding the roles this test writes. */
let onlyG1: string;
let onlySms: string;
let noLedger: string;

type Body = Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>>; last_key?: string; count?: number };

async function get(path: string, token = tenant.admin, on = tenant): Promise<{ status: number; body: Body }> {
  const answer = await on.call('GET', path, token);
  return { status: answer.status, body: answer.body as Body };
}

interface Seed {
  id: string;
  device: string;
  type: LedgerPayloadType;
  outcome: LedgerOutcome;
  day: string;
  time?: string;
}

const holders: Record<string, { user: string; group: () => string }> = {
  [P1]: { user: U1, group: () => G1 },
  [P2]: { user: U2, group: () => G2 },
};

/** Stores an entry as intake does: the entry and its counts in one transaction. */
async function entry(on: RunTenant, seed: Seed) {
  const holder = holders[seed.device] as { user: string; group: () => string };
  const start = `${seed.day}T${seed.time ?? '10:00:00'}.000Z`;
  const cuts: CountedCuts = { day: seed.day, device_reference: seed.device, device_user_reference: holder.user, group: holder.group() };
  const call = seed.type === 'Call';
  const item = ledgerEntryToItem(on.client, {
    entry_id: seed.id,
    payload_type: seed.type,
    direction: 'O',
    start_time: start,
    device_reference: seed.device,
    device_user_reference: holder.user,
    group: holder.group(),
    outcome: seed.outcome,
    reported_at: start,
    outcome_at: start,
    due_at: start,
    day: seed.day,
    ...(call ? { phone_number: '+447700900123', duration: 60 } : { thread_id: `thread-${seed.id}`, phone_number: '+447700900456' }),
    ...(seed.outcome === 'Pending' || seed.outcome === 'Missing' ? {} : { payload_reference: `rec-${seed.id}`, recording_duration: seed.outcome === 'Short' ? 20 : 60, uploaded_at: start }),
  });
  await on.deps.table.transactWrite([{ kind: 'put', item, condition: { kind: 'item-not-exists' } }, ...counterOperations(on.client, [entryStored(cuts, seed.type, seed.outcome)])]);
}

/** A recording of P1 that no entry explains, marked Unexpected as the sweep marks one. */
async function unexpected(on: RunTenant, reference: string, day: string) {
  const time = `${day}T09:00:00.000Z`;
  const item = awaitingEntryToItem(on.client, {
    payload_reference: reference,
    payload_type: 'SMS',
    payload_time: time,
    device_reference: P1,
    direction: 'I',
    numbers: ['447700900789'],
    thread_id: 'thread-unexplained',
    uploaded_at: time,
    device_user_reference: U1,
    group: G1,
    unexpected: true,
    unexpected_at: time,
    day,
  });
  const cuts: CountedCuts = { day, device_reference: P1, device_user_reference: U1, group: G1 };
  await on.deps.table.transactWrite([{ kind: 'put', item }, ...counterOperations(on.client, [unexpectedChanged(cuts, 'SMS', 1)])]);
}

async function people(on: RunTenant) {
  for (const [device, { user, group }] of Object.entries(holders)) {
    const first = user === U1 ? 'Una' : 'Tomas';
    await on.deps.table.put({
      ...keys.deviceUser.item(on.client, user, group()),
      client: on.client,
      device_user_reference: user,
      group: group(),
      services: ['calls', 'sms'],
      expected_device_count: 1,
      email: `${user}@${on.client}.test`,
      first_name: first,
      surname: 'Ledger',
      is_active: true,
    });
    await on.deps.table.put({ ...keys.device.item(on.client, device, user, group()), client: on.client, device_reference: device, device_user_reference: user, group: group(), model: `Model ${device}` });
  }
}

async function role(on: RunTenant, reference: string, permissions: unknown[], payloadTypes: string[]) {
  await on.deps.table.put({
    ...keys.role.item(on.client, reference),
    client: on.client,
    role_reference: reference,
    permissions,
    payload_types: payloadTypes,
    cidr_ranges: [],
    alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
    updated_at: new Date().toISOString(),
  });
  return on.tokenFor(reference);
}

beforeAll(async () => {
  [tenant, other] = await Promise.all([createRunTenant('cmpl'), createRunTenant('cmplx')]);
  G1 = 'group-one';
  G2 = 'group-two';
  await people(tenant);
  await people(other);
  const seeds: Seed[] = [
    { id: 'c1', device: P1, type: 'Call', outcome: 'Captured', day: D1 },
    { id: 'c2', device: P1, type: 'Call', outcome: 'Missing', day: D1, time: '11:00:00' },
    { id: 's1', device: P1, type: 'SMS', outcome: 'Captured late', day: D1, time: '12:00:00' },
    { id: 'c3', device: P2, type: 'Call', outcome: 'Short', day: D1 },
    { id: 's2', device: P2, type: 'SMS', outcome: 'Pending', day: D1, time: '13:00:00' },
    { id: 'c4', device: P1, type: 'Call', outcome: 'Captured', day: D2 },
    { id: 'm1', device: P2, type: 'MMS', outcome: 'Missing', day: D2 },
    { id: 'c5', device: P2, type: 'Call', outcome: 'Captured', day: D3 },
    { id: 'c6', device: P1, type: 'Call', outcome: 'Pending', day: yesterday },
  ];
  for (const seed of seeds) await entry(tenant, seed);
  await unexpected(tenant, 'rec-unexplained', D2);
  // Another tenant on the same days, with the same people's references: none of it may reach this tenant's answers.
  for (const seed of [{ id: 'x1', device: P1, type: 'Call', outcome: 'Missing', day: D1 }, { id: 'x2', device: P2, type: 'SMS', outcome: 'Missing', day: D2 }] as Seed[]) await entry(other, seed);

  const all = { actions_matching: '*', is_denied: false, is_regex: false };
  onlyG1 = await role(tenant, 'only-g1', [{ ...all, conditions: [{ names_matching: G1, is_denied: false, is_regex: false }] }], ['Call', 'SMS', 'MMS', 'RCS', 'AbortedCall']);
  onlySms = await role(tenant, 'only-sms', [all], ['SMS']);
  noLedger = await role(tenant, 'no-ledger', [all], ['Photo', 'AbortedCall']);
}, 120_000);

afterAll(async () => {
  await Promise.all([tenant?.close(), other?.close()]);
});

const counts = (expected: number, rest: Partial<Record<'captured' | 'captured_late' | 'short' | 'pending' | 'missing' | 'unexpected', number>> = {}) => ({
  expected,
  captured: 0,
  captured_late: 0,
  short: 0,
  pending: 0,
  missing: 0,
  unexpected: 0,
  ...rest,
});

/** Every row of a list walked page by page with its cursor (bounded), and how many pages it took. */
async function walk(path: string, token = tenant.admin): Promise<{ rows: Array<Record<string, unknown>>; pages: number }> {
  const rows: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const answer = await get(`${path}${cursor === undefined ? '' : `&last_key=${encodeURIComponent(cursor)}`}`, token);
    expect(answer.status, answer.body.message).toBe(200);
    rows.push(...(answer.body.data ?? []));
    cursor = answer.body.last_key;
    pages += 1;
  } while (cursor !== undefined && pages < 50);
  return { rows, pages };
}

describe('completeness per day', () => {
  it('counts the tenant’s days, newest first, with the share of the settled entries', async () => {
    const answer = await get(`/completeness?by=tenant&${PERIOD}`);
    expect(answer.status, answer.body.message).toBe(200);
    expect(answer.body.data).toEqual([
      { day: D3, ...counts(1, { captured: 1 }), share_complete: 1 },
      { day: D2, ...counts(2, { captured: 1, missing: 1, unexpected: 1 }), share_complete: 0.5 },
      { day: D1, ...counts(5, { captured: 1, captured_late: 1, short: 1, pending: 1, missing: 1 }), share_complete: 0.5 },
    ]);
    expect((await get(`/completeness?by=tenant&${PERIOD}&result_type=total`)).body).toEqual({ count: 3 });
  });

  it('reads the last 30 days when no period is given', async () => {
    const answer = await get('/completeness?by=tenant');
    expect(answer.body.data).toEqual([{ day: yesterday, ...counts(1, { pending: 1 }) }]);
  });

  it('cuts by group (the default), device user and device, each row named', async () => {
    const groups = await get(`/completeness?${PERIOD}`);
    expect(groups.body.data?.map((row) => [row.day, row.group, row.expected])).toEqual([
      [D3, G2, 1],
      [D2, G2, 1],
      [D2, G1, 1],
      [D1, G2, 2],
      [D1, G1, 3],
    ]);
    expect(groups.body.data?.[2]).toEqual({ day: D2, group: G1, ...counts(1, { captured: 1, unexpected: 1 }), share_complete: 1 });

    const users = await get(`/completeness?by=device_user&${PERIOD}`);
    expect(users.body.data?.map((row) => [row.day, row.device_user_reference, row.device_user_name, row.group, row.expected])).toEqual([
      [D3, U2, 'Tomas Ledger', G2, 1],
      [D2, U2, 'Tomas Ledger', G2, 1],
      [D2, U1, 'Una Ledger', G1, 1],
      [D1, U2, 'Tomas Ledger', G2, 2],
      [D1, U1, 'Una Ledger', G1, 3],
    ]);
    const devices = await get(`/completeness?by=device&${PERIOD}&group=${G1}`);
    expect(devices.body.data?.map((row) => [row.day, row.device_reference, row.device_model, row.group, row.missing])).toEqual([
      [D2, P1, `Model ${P1}`, G1, 0],
      [D1, P1, `Model ${P1}`, G1, 1],
    ]);
  });

  it('keeps the rows with at least one of an outcome', async () => {
    const missing = await get(`/completeness?by=group&${PERIOD}&outcome=Missing`);
    expect(missing.body.data?.map((row) => [row.day, row.group])).toEqual([
      [D2, G2],
      [D1, G1],
    ]);
    expect((await get(`/completeness?by=group&${PERIOD}&outcome=Missing&result_type=total`)).body).toEqual({ count: 2 });
    expect((await get(`/completeness?by=tenant&${PERIOD}&outcome=Unexpected`)).body.data?.map((row) => row.day)).toEqual([D2]);
    expect((await get(`/completeness?by=device_user&${PERIOD}&outcome=Short`)).body.data?.map((row) => [row.day, row.device_user_reference])).toEqual([[D1, U2]]);
  });

  it('walks every row exactly once with the cursor, and the total is that many', async () => {
    for (const by of ['tenant', 'group', 'device_user', 'device']) {
      const whole = await get(`/completeness?by=${by}&${PERIOD}&limit=100`);
      const walked = await walk(`/completeness?by=${by}&${PERIOD}&limit=1`);
      expect(walked.rows, by).toEqual(whole.body.data);
      expect(walked.pages, by).toBeGreaterThanOrEqual(whole.body.data?.length ?? 0);
      expect((await get(`/completeness?by=${by}&${PERIOD}&result_type=total`)).body, by).toEqual({ count: whole.body.count });
    }
  });

  it('answers one device’s and one device user’s days; an unknown one is a 404', async () => {
    const device = await get(`/devices/${P1}/completeness?${PERIOD}`);
    expect(device.body.data?.map((row) => [row.day, row.device_reference, row.expected, row.unexpected])).toEqual([
      [D2, P1, 1, 1],
      [D1, P1, 3, 0],
    ]);
    const user = await get(`/users/${U2}/completeness?${PERIOD}&limit=2`);
    expect(user.body.data?.map((row) => [row.day, row.device_user_name])).toEqual([
      [D3, 'Tomas Ledger'],
      [D2, 'Tomas Ledger'],
    ]);
    const rest = await get(`/users/${U2}/completeness?${PERIOD}&limit=2&last_key=${encodeURIComponent(user.body.last_key as string)}`);
    expect(rest.body.data?.map((row) => row.day)).toEqual([D1]);
    expect(rest.body.last_key).toBeUndefined();
    expect((await get(`/devices/no-such-phone/completeness`)).status).toBe(404);
    expect((await get(`/users/no-such-user/completeness`)).status).toBe(404);
  });
});

describe('completeness scopes', () => {
  it('shows a group-limited role only its groups, and its tenant days as the sums of its groups’ rows', async () => {
    const groups = await get(`/completeness?by=group&${PERIOD}`, onlyG1);
    expect(groups.body.data?.map((row) => [row.day, row.group])).toEqual([
      [D2, G1],
      [D1, G1],
    ]);
    expect((await get(`/completeness?by=group&${PERIOD}&group=${G2}`, onlyG1)).body.data).toEqual([]);
    expect((await get(`/completeness?by=device_user&${PERIOD}`, onlyG1)).body.data?.map((row) => row.device_user_reference)).toEqual([U1, U1]);
    expect((await get(`/completeness?by=device&${PERIOD}&result_type=total`, onlyG1)).body).toEqual({ count: 2 });

    const tenantDays = await get(`/completeness?by=tenant&${PERIOD}`, onlyG1);
    expect(tenantDays.body.data).toEqual([
      { day: D2, ...counts(1, { captured: 1, unexpected: 1 }), share_complete: 1 },
      { day: D1, ...counts(3, { captured: 1, captured_late: 1, missing: 1 }), share_complete: 2 / 3 },
    ]);
    expect((await get(`/completeness?by=tenant&${PERIOD}&result_type=total`, onlyG1)).body).toEqual({ count: 2 });
    const walked = await walk(`/completeness?by=tenant&${PERIOD}&limit=1`, onlyG1);
    expect(walked.rows).toEqual(tenantDays.body.data);
    expect((await get(`/completeness?by=tenant&${PERIOD}&outcome=Missing`, onlyG1)).body.data?.map((row) => row.day)).toEqual([D1]);
    // The admin asking for one group's tenant days gets that group's sums.
    expect((await get(`/completeness?by=tenant&${PERIOD}&group=${G2}`)).body.data?.map((row) => [row.day, row.group, row.expected])).toEqual([
      [D3, G2, 1],
      [D2, G2, 1],
      [D1, G2, 2],
    ]);
  });

  it('answers another group’s device or device user exactly as a missing one', async () => {
    expect((await get(`/devices/${P1}/completeness?${PERIOD}`, onlyG1)).body.count).toBe(2);
    const [refused, missing] = [await get(`/devices/${P2}/completeness?${PERIOD}`, onlyG1), await get(`/devices/no-such-phone/completeness?${PERIOD}`, onlyG1)];
    expect(refused).toEqual(missing);
    expect(refused.status).toBe(404);
    const [refusedUser, missingUser] = [await get(`/users/${U2}/completeness`, onlyG1), await get(`/users/no-such-user/completeness`, onlyG1)];
    expect(refusedUser).toEqual(missingUser);
    expect(refusedUser.status).toBe(404);
  });

  it('counts only the payload types a role may see', async () => {
    const sms = await get(`/completeness?by=tenant&${PERIOD}`, onlySms);
    expect(sms.body.data).toEqual([
      { day: D2, ...counts(0, { unexpected: 1 }) },
      { day: D1, ...counts(2, { captured_late: 1, pending: 1 }), share_complete: 1 },
    ]);
    expect((await get(`/completeness?by=device_user&${PERIOD}`, onlySms)).body.data?.map((row) => [row.day, row.device_user_reference, row.expected])).toEqual([
      [D2, U1, 0],
      [D1, U2, 1],
      [D1, U1, 1],
    ]);
    const entries = await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}`, onlySms);
    expect(entries.body.data?.map((row) => [row.entry_reference, row.payload_type, row.outcome])).toEqual([
      ['rec-unexplained', 'SMS', 'Unexpected'],
      [`${P1}/s1`, 'SMS', 'Captured late'],
    ]);
  });

  it('gives a role allowed no ledger payload type no rows and no entries', async () => {
    expect((await get(`/completeness?by=tenant&${PERIOD}`, noLedger)).body).toEqual({ count: 0, data: [] });
    expect((await get(`/completeness?by=group&${PERIOD}&result_type=total`, noLedger)).body).toEqual({ count: 0 });
    expect((await get(`/devices/${P1}/completeness?${PERIOD}`, noLedger)).body).toEqual({ count: 0, data: [] });
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Missing`, noLedger)).body).toEqual({ count: 0, data: [] });
  });

  it('never shows another tenant’s counts or entries, and refuses a call into another tenant', async () => {
    const mine = await get(`/completeness?by=device&${PERIOD}&limit=100`);
    expect(mine.body.data?.reduce((sum, row) => sum + (row.missing as number), 0)).toBe(2);
    const theirs = await get(`/completeness?by=tenant&${PERIOD}`, other.admin, other);
    expect(theirs.body.data?.map((row) => [row.day, row.missing])).toEqual([
      [D2, 1],
      [D1, 1],
    ]);
    const missing = await get(`/completeness/entries?${PERIOD}&outcome=Missing`);
    expect(missing.body.data?.map((row) => row.entry_id)).toEqual(['m1', 'c2']);
    // The other tenant's client app is not one of this tenant's: its token is refused before any read.
    expect((await tenant.call('GET', `/completeness?by=tenant&${PERIOD}`, other.admin)).status).toBe(401);
  });
});

describe('completeness entries', () => {
  it('lists the entries of an outcome newest first, named, with the recording that captured them', async () => {
    const missing = await get(`/completeness/entries?${PERIOD}&outcome=Missing`);
    expect(missing.status, missing.body.message).toBe(200);
    expect(missing.body.data?.[1]).toEqual({
      entry_reference: `${P1}/c2`,
      entry_id: 'c2',
      outcome: 'Missing',
      payload_type: 'Call',
      direction: 'O',
      phone_number: '+447700900123',
      start_time: `${D1}T11:00:00.000Z`,
      duration: 60,
      device_reference: P1,
      device_model: `Model ${P1}`,
      device_user_reference: U1,
      device_user_name: 'Una Ledger',
      group: G1,
      reported_at: `${D1}T11:00:00.000Z`,
      outcome_at: `${D1}T11:00:00.000Z`,
      due_at: `${D1}T11:00:00.000Z`,
    });
    const short = await get(`/completeness/entries?${PERIOD}&outcome=Short`);
    expect(short.body.data?.map((row) => [row.entry_id, row.payload_reference, row.recording_duration])).toEqual([['c3', 'rec-c3', 20]]);
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Missing&group=${G2}`)).body.data?.map((row) => row.entry_id)).toEqual(['m1']);
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Missing&payload_type=Call`)).body.data?.map((row) => row.entry_id)).toEqual(['c2']);
  });

  it('lists a device user’s entries and unexpected recordings, a device’s, and the tenant’s unexpected ones', async () => {
    const user = await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}`);
    expect(user.body.data?.map((row) => [row.entry_reference, row.outcome])).toEqual([
      [`${P1}/c4`, 'Captured'],
      ['rec-unexplained', 'Unexpected'],
      [`${P1}/s1`, 'Captured late'],
      [`${P1}/c2`, 'Missing'],
      [`${P1}/c1`, 'Captured'],
    ]);
    expect((await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}&outcome=Captured`)).body.data?.map((row) => row.entry_id)).toEqual(['c4', 'c1']);
    const device = await get(`/completeness/entries?${PERIOD}&device_reference=${P2}`);
    expect(device.body.data?.map((row) => row.entry_id)).toEqual(['c5', 'm1', 's2', 'c3']);
    const unexplained = await get(`/completeness/entries?${PERIOD}&outcome=Unexpected`);
    expect(unexplained.body.data).toEqual([
      expect.objectContaining({ entry_reference: 'rec-unexplained', outcome: 'Unexpected', payload_type: 'SMS', payload_reference: 'rec-unexplained', device_reference: P1, device_user_name: 'Una Ledger', group: G1 }),
    ]);
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Unexpected&device_reference=${P1}`)).body.data?.map((row) => row.entry_reference)).toEqual(['rec-unexplained']);
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Unexpected&device_reference=${P2}`)).body.data).toEqual([]);
  });

  it('walks the entries with the cursor exactly once, and counts them', async () => {
    const whole = await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}&limit=100`);
    const walked = await walk(`/completeness/entries?${PERIOD}&device_user_reference=${U1}&limit=2`);
    expect(walked.rows).toEqual(whole.body.data);
    expect((await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}&result_type=total`)).body).toEqual({ count: 5 });
  });

  it('applies group scope to every entry', async () => {
    expect((await get(`/completeness/entries?${PERIOD}&outcome=Missing`, onlyG1)).body.data?.map((row) => row.entry_id)).toEqual(['c2']);
    expect((await get(`/completeness/entries?${PERIOD}&device_reference=${P2}`, onlyG1)).body.data).toEqual([]);
    expect((await get(`/completeness/entries?${PERIOD}&device_user_reference=${U2}&result_type=total`, onlyG1)).body).toEqual({ count: 0 });
  });
});

describe('completeness report cost', () => {
  it('reads the period’s rows and entries only, however long the history before it', async () => {
    const measure = async (work: () => Promise<unknown>) => (await measureCapacity(work)).capacity.itemsRead;
    const caller = (action: string) => adminCaller(tenant.deps, tenant.client, action);
    const tenantDays = () => listCompleteness(caller('completeness:List'), { by: 'tenant', from: D1, to: D3, limit: 50, result_type: 'page' });
    const userDays = () => listCompleteness(caller('completeness:List'), { by: 'device_user', from: D1, to: D3, limit: 50, result_type: 'page' });
    const missing = () => listCompletenessEntries(caller('completeness:ListEntries'), { outcome: 'Missing', from: D1, to: D3, limit: 50, result_type: 'page' });
    const before = [await measure(tenantDays), await measure(userDays), await measure(missing)];
    // 3 tenant days; 5 device user days and their 2 users named; 2 Missing entries and their 2 users and 2 phones named.
    expect(before).toEqual([3, 7, 6]);
    // 90 earlier days of history for both phones: each day's counts and a Missing entry.
    for (let back = 1; back <= 90; back += 1) {
      const day = new Date(Date.parse(`${D1}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
      await entry(tenant, { id: `h${back}`, device: back % 2 === 0 ? P1 : P2, type: 'Call', outcome: 'Missing', day });
    }
    expect([await measure(tenantDays), await measure(userDays), await measure(missing)]).toEqual(before);
  });
});

describe('hostile completeness queries', () => {
  const refused = async (path: string, field: string, token = tenant.admin) => {
    const answer = await get(path, token);
    expect(answer.status, `${path}: ${answer.body.message}`).toBe(400);
    expect(answer.body.message, path).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `, 'm'));
    return answer.body.message as string;
  };

  it('answers bad periods, unknown cuts and page sizes with a 400 naming the field', async () => {
    await refused('/completeness?from=2020-13-45', 'query.from');
    await refused('/completeness?to=yesterday', 'query.to');
    await refused(`/completeness?from=${D3}&to=${D1}`, 'query.from');
    expect(await refused(`/completeness?from=${year - 2}-01-01&to=${D1}`, 'query.from')).toContain('at most 366 days');
    await refused('/completeness?by=planet', 'query.by');
    await refused('/completeness?outcome=Lost', 'query.outcome');
    await refused('/completeness?limit=0', 'query.limit');
    await refused('/completeness?limit=101', 'query.limit');
    await refused('/completeness?group=', 'query.group');
    await refused(`/devices/${P1}/completeness?from=${D3}&to=${D1}`, 'query.from');
    await refused(`/completeness/entries?${PERIOD}&payload_type=Photo`, 'query.payload_type');
    await refused(`/completeness/entries?from=${D3}&to=${D1}&outcome=Missing`, 'query.from');
  });

  it('asks for an outcome, a device user or a device before listing entries', async () => {
    expect(await refused(`/completeness/entries?${PERIOD}`, 'query.outcome')).toContain('device_user_reference');
    await refused(`/completeness/entries?${PERIOD}&group=${G1}`, 'query.outcome');
  });

  it('refuses an oversized cursor, a forged one and one from another list', async () => {
    await refused(`/completeness?last_key=${'a'.repeat(3072)}`, 'query.last_key');
    await refused(`/completeness?last_key=forged.cursor`, 'query.last_key');
    const page = await get(`/completeness?by=group&${PERIOD}&limit=1`);
    const cursor = encodeURIComponent(page.body.last_key as string);
    await refused(`/completeness?by=device&${PERIOD}&limit=1&last_key=${cursor}`, 'query.last_key');
    await refused(`/completeness?by=group&${PERIOD}&outcome=Missing&limit=1&last_key=${cursor}`, 'query.last_key');
    await refused(`/completeness?by=tenant&${PERIOD}&limit=1&last_key=${cursor}`, 'query.last_key', onlyG1);
    const summed = await get(`/completeness?by=tenant&${PERIOD}&limit=1`, onlyG1);
    await refused(`/completeness?by=tenant&${PERIOD}&group=${G1}&limit=1&last_key=${encodeURIComponent(summed.body.last_key as string)}`, 'query.last_key', onlyG1);
    const entries = await get(`/completeness/entries?${PERIOD}&device_user_reference=${U1}&limit=1`);
    await refused(`/completeness/entries?${PERIOD}&device_user_reference=${U2}&limit=1&last_key=${encodeURIComponent(entries.body.last_key as string)}`, 'query.last_key');
    // Another tenant's genuine cursor is refused here like a forged one.
    const theirs = await get(`/completeness?by=group&${PERIOD}&limit=1`, other.admin, other);
    await refused(`/completeness?by=group&${PERIOD}&limit=1&last_key=${encodeURIComponent(theirs.body.last_key as string)}`, 'query.last_key');
  });
});
