import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceLogToItem } from '#core/store/entities/device-log.ts';
import { erasureRequestKeys } from '#core/store/entities/erasure-request.ts';
import { gpsToItem } from '#core/store/entities/gps.ts';
import { supervisionItemToItem } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import type { ErasureKindOutcome, ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { erasureDecisionJob, erasureRunJob } from '../../lambdas/account-data/erasure/erasure-jobs.ts';
import { createErasureRequest, reviewErasureRequest } from '../../lambdas/account-data/erasure/erasure-service.ts';
import { sweepStuckJobs } from '../../lambdas/jobs/job-sweep.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, SECOND_ADMIN_ROLE, type RunTenant } from './support/run-tenant.ts';

/**
 * Erasure requests (GDPR Art 17) on the local stack, in tenants of this run. The policy keeps GPS fixes, device logs and
 * review items and an offboarded person's record 1 day (destroyed after 2); recordings keep their default (years, from payload_time).
 *
 * - `gone-sam`: offboarded 30 days ago, no device, no hold; 3 GPS fixes and 2 log lines of 10 days ago, 1 call
 *   recorded yesterday whose review item closed 10 days ago. Erasure destroys the fixes, the lines, the review item and
 *   the personal fields (each with a disposal record naming the request) and keeps the call under 17(3)(b) until its
 *   retention date.
 * - `held-pat`: the same records, under an active legal hold: everything is kept under 17(3)(e), naming the hold.
 * - `north-nora`: in group `north`, for the group scope.
 */
let tenant: RunTenant;
let other: RunTenant;
let second: string;

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const received = () => new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);

async function person(one: RunTenant, user: string, group = 'team') {
  const { client, deps } = one;
  await deps.table.put({
    ...keys.deviceUser.item(client, user, group),
    client,
    device_user_reference: user,
    group,
    first_name: 'Pat',
    surname: user,
    email: `${user}@example.com`,
    is_active: false,
    offboard_date: ago(30),
    services: [],
    updated_at: ago(30),
  });
  for (let n = 0; n < 3; n += 1) {
    await deps.table.put(gpsToItem(client, { gps_reference: ulid(), device_reference: `dev-${user}`, device_user_reference: user, latitude: 51.5, longitude: -0.1, timestamp: ago(10 + n / 24) }));
  }
  for (let n = 0; n < 2; n += 1) {
    await deps.table.put(deviceLogToItem(client, { log_id: ulid(), device_reference: `dev-${user}`, device_user_reference: user, log_level: 'INFO', log_datetime: ago(10 + n / 24), log_message: 'ok' }));
  }
  const reference = ulid();
  await deps.table.put({
    ...keys.payload.item(client, { payloadReference: reference, payloadTime: ago(1), deviceReference: `dev-${user}`, deviceUserReference: user }),
    client,
    payload_reference: reference,
    payload_type: 'Call',
    payload_state: 'Processed',
    device_reference: `dev-${user}`,
    device_user_reference: user,
    payload_time: ago(1),
  });
  // The call's review, closed 10 days ago (a review item is under the recording's reference).
  await deps.table.put(
    supervisionItemToItem(client, {
      item_reference: reference,
      payload_type: 'Call',
      payload_time: ago(1),
      device_reference: `dev-${user}`,
      device_user_reference: user,
      hits: [],
      state: 'Closed',
      due_at: ago(9),
      closed_by: 'reviewer',
      closed_at: ago(10),
      raised_at: ago(11),
      updated_at: ago(10),
      item_version: 2,
      policy_references: [],
    }),
  );
}

const record = (one: RunTenant, token: string, user: string, extra: Record<string, unknown> = {}) =>
  one.call('POST', '/account/erasure_requests', token, { device_user_reference: user, requester: { type: 'DataSubject' }, received_at: received(), channel: 'Email', ...extra });

/** Reads the request until it is in one of `states` (its job runs in the stack). */
async function waitFor(one: RunTenant, reference: string, states: string[]): Promise<ErasureRequest> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await one.call('GET', `/account/erasure_requests/${reference}`, one.admin);
    expect(answer.status).toBe(200);
    const request = answer.body as unknown as ErasureRequest;
    if (states.includes(request.erasure_state)) return request;
    if (Date.now() > deadline) throw new Error(`Erasure request ${reference} is still ${request.erasure_state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const kind = (request: ErasureRequest, name: string) => request.outcomes.find((outcome) => outcome.kind === name) as ErasureKindOutcome;

beforeAll(async () => {
  tenant = await createRunTenant('erasure');
  other = await createRunTenant('erasureb');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const group of ['team', 'north']) await deps.table.put({ ...keys.group.item(client, group), client, group_reference: group, tags: [], updated_at: now });
  const periods = { delete_after_days: 1, destroy_after_days: 2 };
  // Shorter periods wait for a second admin (four eyes): `applied` approves them as SECOND_ADMIN_ROLE.
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { GpsData: periods, DeviceData: periods, DeviceUserData: periods, SupervisionData: periods })).status).toBe(200);
  second = await tenant.tokenFor(SECOND_ADMIN_ROLE);
  await person(tenant, 'gone-sam');
  await person(tenant, 'held-pat');
  await person(tenant, 'north-nora', 'north');
  await person(tenant, 'resumed-ray');
  expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/held-pat', tenant.admin, {})).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await Promise.all([tenant?.close(), other?.close()]);
});

describe('an erasure request on an unheld offboarded person', () => {
  let reference: string;

  it('is recorded, decided kind by kind, and refused to the person who recorded it', async () => {
    const created = await record(tenant, tenant.admin, 'gone-sam', { requester: { type: 'Representative', name: 'Dana Lawyer' }, channel: 'Letter', note: 'By post' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ device_user_reference: 'gone-sam', erasure_state: 'Recorded', channel: 'Letter', requester: { type: 'Representative', name: 'Dana Lawyer' } });
    reference = created.body.erasure_request_reference as string;
    const decided = await waitFor(tenant, reference, ['Decided']);
    expect(kind(decided, 'GpsFixes')).toMatchObject({ found: 3, to_erase: 3, kept: [] });
    expect(kind(decided, 'DeviceLogs')).toMatchObject({ found: 2, to_erase: 2, kept: [] });
    expect(kind(decided, 'PersonalFields')).toMatchObject({ found: 1, to_erase: 1, kept: [] });
    expect(kind(decided, 'SupervisionItems')).toMatchObject({ found: 1, to_erase: 1, kept: [] });
    const calls = kind(decided, 'Recordings');
    expect(calls).toMatchObject({ found: 1, to_erase: 0 });
    expect(calls.kept).toEqual([expect.objectContaining({ exception: 'LegalObligation', article: '17(3)(b)', count: 1, rule: expect.stringContaining('PayloadData (Call)') })]);
    // Kept until a year-scale date ahead (the call's period counts from yesterday).
    expect(Date.parse(calls.kept[0]?.kept_until ?? '') - Date.now()).toBeGreaterThan(365 * DAY);
    // Nothing is erased before a second person approves.
    expect(await tenant.deps.table.get(keys.deviceUser.key(tenant.client, 'gone-sam'), { consistent: true })).toMatchObject({ email: 'gone-sam@example.com' });

    const own = await tenant.call('POST', `/account/erasure_requests/${reference}/review`, tenant.admin, { decision: 'Approve', reason: 'Mine' });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/recorded an erasure request cannot review it/);
  });

  it('is erased once a second admin approves it, with a disposal record per erased record, and reports both', async () => {
    const approved = await tenant.call('POST', `/account/erasure_requests/${reference}/review`, second, { decision: 'Approve', reason: 'No obligation keeps these' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ erasure_state: 'Approved', review: { decision: 'Approve', reason: 'No obligation keeps these' } });
    const done = await waitFor(tenant, reference, ['Completed']);
    expect(kind(done, 'GpsFixes')).toMatchObject({ to_erase: 3, erased: 3, kept: [] });
    expect(kind(done, 'DeviceLogs')).toMatchObject({ to_erase: 2, erased: 2, kept: [] });
    expect(kind(done, 'PersonalFields')).toMatchObject({ to_erase: 1, erased: 1 });
    expect(kind(done, 'SupervisionItems')).toMatchObject({ to_erase: 1, erased: 1 });
    expect(kind(done, 'GpsFixes').erased_from).toBeDefined();
    expect(kind(done, 'Recordings')).toMatchObject({ erased: 0, kept: [expect.objectContaining({ exception: 'LegalObligation', count: 1 })] });

    const { client, deps } = tenant;
    const user = await deps.table.get(keys.deviceUser.key(client, 'gone-sam'), { consistent: true });
    expect(user).toMatchObject({ retention_state: 'Destroyed' });
    expect([user?.email, user?.first_name, user?.surname]).toEqual([undefined, undefined, undefined]);
    expect((await deps.table.query(keys.gps.byDeviceUser(client, 'gone-sam'))).items).toEqual([]);
    expect((await deps.table.query(keys.deviceLog.byDeviceUser(client, 'gone-sam'))).items).toEqual([]);
    expect((await deps.table.query(keys.payload.listByDeviceUser(client, 'gone-sam'))).items).toHaveLength(1);
    const call = (await deps.table.query(keys.payload.listByDeviceUser(client, 'gone-sam'))).items[0];
    expect(await deps.table.get(keys.supervisionItem.key(client, String(call?.payload_reference)), { consistent: true })).toMatchObject({ retention_state: 'Destroyed' });

    const disposals = await tenant.call('GET', `/disposals?run_id=erasure-${reference}&limit=100`, tenant.admin);
    expect(disposals.status).toBe(200);
    const records = disposals.body.data as Array<{ record_type: string; action: string }>;
    expect(records.map((entry) => entry.record_type).sort()).toEqual(['DeviceData', 'DeviceData', 'DeviceUserData', 'GpsData', 'GpsData', 'GpsData', 'SupervisionData']);
    expect(new Set(records.map((entry) => entry.action))).toEqual(new Set(['Destroyed']));
  });
});

describe('an erasure request on a held person', () => {
  it('keeps everything the hold covers, naming the hold, and erases nothing', async () => {
    const created = await record(tenant, tenant.admin, 'held-pat');
    expect(created.status).toBe(201);
    const reference = created.body.erasure_request_reference as string;
    const decided = await waitFor(tenant, reference, ['Decided']);
    const hold = { exception: 'LegalHold', article: '17(3)(e)', holds: [{ target_type: 'DeviceUser', target: 'held-pat' }] };
    for (const [name, count] of [['PersonalFields', 1], ['Recordings', 1], ['GpsFixes', 3], ['DeviceLogs', 2], ['SupervisionItems', 1]] as const) {
      expect(kind(decided, name)).toMatchObject({ found: count, to_erase: 0, kept: [{ ...hold, count }] });
    }
    expect((await tenant.call('POST', `/account/erasure_requests/${reference}/review`, second, { decision: 'Approve', reason: 'Report the hold' })).status).toBe(200);
    const done = await waitFor(tenant, reference, ['Completed']);
    for (const name of ['PersonalFields', 'Recordings', 'GpsFixes', 'DeviceLogs', 'SupervisionItems']) expect(kind(done, name)).toMatchObject({ erased: 0, kept: [expect.objectContaining(hold)] });
    expect(await tenant.deps.table.get(keys.deviceUser.key(tenant.client, 'held-pat'), { consistent: true })).toMatchObject({ email: 'held-pat@example.com' });
    expect((await tenant.deps.table.query(keys.gps.byDeviceUser(tenant.client, 'held-pat'))).items).toHaveLength(3);
  });
});

describe('review', () => {
  it('a reject runs nothing; a second review and a review while deciding are refused (409)', async () => {
    const created = await record(tenant, tenant.admin, 'north-nora');
    const reference = created.body.erasure_request_reference as string;
    await waitFor(tenant, reference, ['Decided']);
    const rejected = await tenant.call('POST', `/account/erasure_requests/${reference}/review`, second, { decision: 'Reject', reason: 'Not the person' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ erasure_state: 'Rejected' });
    expect((await tenant.call('POST', `/account/erasure_requests/${reference}/review`, second, { decision: 'Approve', reason: 'Again' })).status).toBe(409);
    expect(await tenant.deps.table.get(keys.deviceUser.key(tenant.client, 'north-nora'), { consistent: true })).toMatchObject({ email: 'north-nora@example.com' });
    expect((await tenant.deps.table.query(keys.gps.byDeviceUser(tenant.client, 'north-nora'))).items).toHaveLength(3);

    // A request whose decision has not run yet (recorded through the service, its job start held back).
    const held: Array<[string, Record<string, unknown>]> = [];
    const deps = { ...tenant.deps, jobs: { start: async (job: string, input: Record<string, unknown>) => void held.push([job, input]) } } as Dependencies;
    const waiting = await createErasureRequest(adminCaller(deps, tenant.client, 'erasureRequests:Create'), { device_user_reference: 'north-nora', requester: { type: 'DataSubject' }, received_at: received(), channel: 'Phone' });
    expect((await tenant.call('POST', `/account/erasure_requests/${waiting.erasure_request_reference}/review`, second, { decision: 'Approve', reason: 'Too soon' })).status).toBe(409);
    // The decision then runs as its job would, so nothing is left waiting.
    for (const [, input] of held.splice(0)) await erasureDecisionJob(deps, input);
  });
});

describe('who sees a request, and hostile input', () => {
  it('another tenant gets 404; a caller outside the person\'s group gets 404 and an empty list', async () => {
    const created = await record(tenant, tenant.admin, 'north-nora');
    const reference = created.body.erasure_request_reference as string;
    expect((await other.call('GET', `/account/erasure_requests/${reference}`, other.admin)).status).toBe(404);
    expect((await other.call('POST', `/account/erasure_requests/${reference}/review`, other.admin, { decision: 'Reject', reason: 'x' })).status).toBe(404);
    expect((await record(other, other.admin, 'gone-sam')).status).toBe(404);

    const { client, deps } = tenant;
    await deps.table.put({
      ...keys.role.item(client, 'team-erasure'),
      client,
      role_reference: 'team-erasure',
      permissions: [{ actions_matching: 'erasureRequests:*', is_denied: false, is_regex: false, conditions: [{ names_matching: 'team', is_denied: false, is_regex: false }] }],
      payload_types: [],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: new Date().toISOString(),
    });
    const team = await tenant.tokenFor('team-erasure');
    expect((await tenant.call('GET', `/account/erasure_requests/${reference}`, team)).status).toBe(404);
    expect((await record(tenant, team, 'north-nora')).status).toBe(404);
    const listed = await tenant.call('GET', '/account/erasure_requests?device_user_reference=north-nora', team);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    const all = await tenant.call('GET', '/account/erasure_requests?device_user_reference=north-nora', tenant.admin);
    expect((all.body.data as ErasureRequest[]).map((entry) => entry.erasure_request_reference)).toContain(reference);
    await waitFor(tenant, reference, ['Decided']);
  });

  it('refuses hostile input with 4xx and one line per problem, never a 5xx', async () => {
    const future = new Date(Date.now() + 7 * DAY).toISOString().slice(0, 19);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ note: 'x'.repeat(10 * 1024) }, /^body\.note: /m],
      [{ channel: 'Pigeon' }, /^body\.channel: /m],
      [{ received_at: future }, /^body\.received_at: Must not be in the future/m],
      [{ received_at: '31/12/2025' }, /^body\.received_at: /m],
      [{ requester: { type: 'Representative' } }, /^body\.requester\.name: /m],
      [{ requester: { type: 'DataSubject' }, extra: true }, /^body\.extra: /m],
    ];
    for (const [extra, message] of cases) {
      const answer = await record(tenant, tenant.admin, 'gone-sam', extra);
      expect(answer.status, JSON.stringify(extra).slice(0, 80)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect((await record(tenant, tenant.admin, 'nobody-here')).status).toBe(404);
    expect((await tenant.call('GET', '/account/erasure_requests/not-a-ulid', tenant.admin)).status).toBe(400);
    expect((await tenant.call('GET', `/account/erasure_requests/${ulid()}`, tenant.admin)).status).toBe(404);
    expect((await tenant.call('GET', '/account/erasure_requests?erasure_state=Gone', tenant.admin)).status).toBe(400);
    expect((await tenant.call('POST', `/account/erasure_requests/${ulid()}/review`, second, { decision: 'Maybe', reason: 'x' })).status).toBe(400);
    expect((await tenant.call('POST', `/account/erasure_requests/${ulid()}/review`, second, { decision: 'Approve', reason: '' })).status).toBe(400);
    // A reviewer-only role cannot record or review (403).
    expect((await record(tenant, tenant.reviewer, 'gone-sam')).status).toBe(403);
  });
});

describe('the erasure jobs after a budget stop', () => {
  it('hand over page by page and go on from where they stopped, counting each record once', async () => {
    const { client } = tenant;
    const starts: Array<[string, Record<string, unknown>]> = [];
    const deps = { ...tenant.deps, jobs: { start: async (job: string, input: Record<string, unknown>) => void starts.push([job, input]) } } as Dependencies;
    const created = await createErasureRequest(adminCaller(deps, client, 'erasureRequests:Create'), { device_user_reference: 'resumed-ray', requester: { type: 'DataSubject' }, received_at: received(), channel: 'InPerson' });
    const reference = created.erasure_request_reference;
    const runAll = async (job: (d: Dependencies, input: Record<string, unknown>) => Promise<Record<string, unknown>>) => {
      let invocations = 0;
      while (starts.length > 0) {
        const [, input] = starts.shift() as [string, Record<string, unknown>];
        invocations += 1;
        await job(deps, { ...input, batch: 1, budget_ms: 0 });
      }
      return invocations;
    };
    // Every page hands over: more invocations than kinds.
    expect(await runAll(erasureDecisionJob)).toBeGreaterThan(5);
    const stored = await deps.table.get(erasureRequestKeys.key(client, reference), { consistent: true });
    expect(stored).toMatchObject({ erasure_state: 'Decided' });
    const decided = stored as unknown as ErasureRequest;
    expect([kind(decided, 'GpsFixes').to_erase, kind(decided, 'DeviceLogs').to_erase, kind(decided, 'PersonalFields').to_erase, kind(decided, 'Recordings').found]).toEqual([3, 2, 1, 1]);
    // No running marker is left once the decision has ended.
    expect(await deps.table.get(keys.runningJob.key(client, 'erasure-decision', reference), { consistent: true })).toBeUndefined();

    const reviewer = adminCaller(deps, client, 'erasureRequests:Review', { kind: 'user', subject: 'second-reviewer', client, roles: ['admin'] } as never);
    await reviewErasureRequest(reviewer, reference, { decision: 'Approve', reason: 'Resumable' });
    expect(await runAll(erasureRunJob)).toBeGreaterThan(5);
    const completed = (await deps.table.get(erasureRequestKeys.key(client, reference), { consistent: true })) as unknown as ErasureRequest;
    expect(completed.erasure_state).toBe('Completed');
    expect([kind(completed, 'GpsFixes').erased, kind(completed, 'DeviceLogs').erased, kind(completed, 'PersonalFields').erased]).toEqual([3, 2, 1]);
    expect(await deps.table.get(keys.runningJob.key(client, 'erasure-run', reference), { consistent: true })).toBeUndefined();
  });
});

describe('an erasure job whose invocation died', () => {
  const captured = () => {
    const started: Array<[string, Record<string, unknown>]> = [];
    const deps = { ...tenant.deps, jobs: { start: async (job: string, input: Record<string, unknown>) => void started.push([job, input]) } } as Dependencies;
    return { deps, started };
  };
  /** Moves the marker's lease into the past, as time passing without a renewal would. */
  const expire = async (id: string) => {
    const past = new Date(Date.now() - 60_000);
    await tenant.deps.table.update(keys.runningJob.key(tenant.client, 'erasure-decision', id), {
      set: { lease_until: past.toISOString(), gsi1sk: keys.runningJob.item(tenant.client, 'erasure-decision', id, past).gsi1sk },
    });
  };
  const record = async (deps: Dependencies) =>
    (await createErasureRequest(adminCaller(deps, tenant.client, 'erasureRequests:Create'), { device_user_reference: 'north-nora', requester: { type: 'DataSubject' }, received_at: received(), channel: 'Other' }))
      .erasure_request_reference;

  it('is resumed by the job-sweep and goes on to its end', async () => {
    const { deps, started } = captured();
    const reference = await record(deps);
    started.length = 0;
    await expire(reference);
    const report = await sweepStuckJobs(deps, { client: tenant.client });
    expect(report.resumed).toBeGreaterThanOrEqual(1);
    const resumed = started.filter(([job, input]) => job === 'erasure-decision' && input.erasure_request_reference === reference);
    expect(resumed).toHaveLength(1);
    await erasureDecisionJob(deps, resumed[0]?.[1] ?? {});
    expect(await deps.table.get(erasureRequestKeys.key(tenant.client, reference), { consistent: true })).toMatchObject({ erasure_state: 'Decided' });
    expect(await deps.table.get(keys.runningJob.key(tenant.client, 'erasure-decision', reference), { consistent: true })).toBeUndefined();
  });

  it('is ended Failed, with why and an ops alert, when resumptions make no progress: never left deciding', async () => {
    const { deps } = captured();
    const reference = await record(deps);
    for (let sweep = 0; sweep <= deps.config.JOB_RESUMPTION_LIMIT; sweep += 1) {
      await expire(reference);
      await sweepStuckJobs(deps, { client: tenant.client });
    }
    const stored = await deps.table.get(erasureRequestKeys.key(tenant.client, reference), { consistent: true });
    expect(stored).toMatchObject({ erasure_state: 'Failed', error_message: expect.stringMatching(/^The decision stopped: /) });
    expect(await deps.table.get(keys.runningJob.key(tenant.client, 'erasure-decision', reference), { consistent: true })).toBeUndefined();
    const alerts = await deps.table.query({ ...keys.alert.list(tenant.client), limit: 200 });
    expect(alerts.items.some((item) => item.alert_key === `erasure-decision:${reference}`)).toBe(true);
  });
});
