import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '#shared/constants/devices.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { keys } from '#core/store/keys.ts';
import { phoneNumberToItem } from '#core/store/entities/phone-number.ts';
import { statsAttribute } from '#core/store/entities/group.ts';
import { usedAttribute } from '../../lambdas/licences/licence-usage.ts';
import { deviceDashboardState, deviceUserDashboardState } from '../../lambdas/metrics/dashboard-counters.ts';
import { countersRecountJob } from '../../lambdas/metrics/counters-recount.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { record } from '../../scripts/device/recorder.ts';
import { enrol, type Simulator } from '../../scripts/device/simulator.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Counts agree everywhere, from one source (docs/decisions.md "Licence use and counts"). In a tenant of this run,
 * device users are onboarded and offboarded through the admin API, phones enrol and record through the device
 * protocol, one is deactivated by the admin; then every endpoint that shows a count (licences, groups' stats, the
 * dashboard, the internal licences, clients and statistics, device metrics and the services overview's source) must
 * show what the lists of users, devices and recordings say, and the same number where two show one. The same holds
 * after a legacy import, after counters written wrong are repaired by the recount job, and after retention runs.
 */
type Json = Record<string, unknown>;
interface User {
  device_user_reference: string;
  group?: string;
  services: string[];
  is_active: boolean;
  is_legacy?: boolean;
  expected_device_count: number;
}
interface Device {
  device_reference: string;
  group?: string;
  services: string[];
  is_deactivated: boolean;
  is_legacy?: boolean;
  activated_at?: string;
}
interface Usage {
  service: string;
  limit: number;
  used: number;
}

let tenant: RunTenant;
let staff: string;
/** A portal user of the run tenant with its `admin` role (the admin surface takes portal sign-in only). */
let admin: string;
let sim: Simulator;
const DAY = 86_400_000;
/** Each case reads every count endpoint (a few dozen calls) and may import or run retention: more than the default 30 s on a busy machine. */
const CASE_TIMEOUT = 120_000;
const today = new Date().toISOString().slice(0, 10);
const weekAgo = new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10);
const phones: Record<string, DeviceState> = {};
const numberOf = (index: number) => `07700${String(Date.now()).slice(-5)}${index}`.slice(0, 12);

const call = async (method: string, path: string, body?: unknown) => {
  const answer = await tenant.call(method, path, admin, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
};
const internal = async (path: string) => {
  const response = await api(`/internal/v1${path}`, { headers: bearer(staff) });
  const body = (await response.json()) as Json;
  expect(response.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
};

/** The run tenant's row of the staff console's clients list (`GET /clients` pages every tenant). */
async function clientSummary(): Promise<Json> {
  let cursor: string | undefined;
  do {
    const page = await internal(`/clients?limit=100${cursor === undefined ? '' : `&last_key=${encodeURIComponent(cursor)}`}`);
    const found = (page.data as Json[]).find((row) => row.client === tenant.client);
    if (found !== undefined) return found;
    cursor = page.last_key as string | undefined;
  } while (cursor !== undefined);
  throw new Error(`${tenant.client} is not in GET /clients`);
}

/** Every item of a list endpoint, page by page. */
async function all<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const join = path.includes('?') ? '&' : '?';
    const page = await call('GET', `${path}${join}limit=100${cursor === undefined ? '' : `&last_key=${encodeURIComponent(cursor)}`}`);
    items.push(...(page.data as T[]));
    cursor = page.last_key as string | undefined;
  } while (cursor !== undefined);
  return items;
}

const onboard = (reference: string, group: string, services: string[], expected = 1) =>
  call('POST', `/users/${reference}`, { group, services, expected_device_count: expected, email: `${reference}@example.test`, first_name: 'Count', surname: reference });

/** A phone of `user` (its number indexed as an administrator or an import records it), enrolled through the device protocol. */
async function phoneOf(name: string, user: string | undefined, index: number): Promise<DeviceState> {
  const number = numberOf(index);
  if (user !== undefined) await tenant.deps.table.put(phoneNumberToItem(tenant.client, { client: tenant.client, phone_number: number, device_user_reference: user }));
  const { state, result } = await enrol(sim, { name, client: tenant.client, phoneNumbers: [number] });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  phones[name] = state;
  return state;
}

async function recordExpecting(phone: DeviceState, type: 'Call' | 'Interview' | 'SMS', expected: string, options: { tamper?: boolean } = {}) {
  const results = await record(sim, phone, type, { ...options, at: new Date(Date.now() - 3_600_000) });
  for (const result of results) expect(result.state, JSON.stringify(result)).toBe(expected);
}

/** What the lists of users and devices say each count must be (the definitions of docs/decisions.md). */
function expectedFrom(users: User[], devices: Device[]) {
  const active = users.filter((user) => user.is_active);
  const live = devices.filter((device) => !device.is_deactivated);
  const used = Object.fromEntries(SERVICES.map((service) => [service, active.filter((user) => user.services.includes(service)).length]));
  const groups = new Set([...users.map((user) => user.group), ...devices.map((device) => device.group)].filter((group): group is string => group !== undefined));
  const stats = Object.fromEntries(
    [...groups].map((group) => {
      const members = active.filter((user) => user.group === group);
      const held = live.filter((device) => device.group === group);
      const services = Object.fromEntries(
        SERVICES.map((service) => {
          const withService = members.filter((user) => user.services.includes(service));
          return [
            service,
            {
              used_licenses: withService.length,
              active_users: withService.length,
              expected_devices: withService.reduce((sum, user) => sum + user.expected_device_count, 0),
              active_devices: held.filter((device) => device.services.includes(service)).length,
            },
          ];
        }),
      );
      return [group, { device_users: members.length, expected_devices: members.reduce((sum, user) => sum + user.expected_device_count, 0), actual_devices: held.length, services }];
    }),
  );
  const dashboardDevices: Record<string, number> = { activated: 0, pending: 0, deactivated: 0, legacyActivated: 0, legacyDeactivated: 0 };
  for (const device of devices) dashboardDevices[deviceDashboardState(device)] = (dashboardDevices[deviceDashboardState(device)] ?? 0) + 1;
  const dashboardUsers: Record<string, number> = { onboarded: 0, offboarded: 0, legacyOnboarded: 0, legacyOffboarded: 0 };
  for (const user of users) dashboardUsers[deviceUserDashboardState(user)] = (dashboardUsers[deviceUserDashboardState(user)] ?? 0) + 1;
  return { used, stats, dashboard: { devices: dashboardDevices, users: dashboardUsers } };
}

/** A group's stats with every service present (the API leaves out a service no counter ever touched: all zeros). */
function withEveryService(stats: Json) {
  const services = (stats.services ?? {}) as Record<string, Json>;
  const zero = { used_licenses: 0, active_users: 0, expected_devices: 0, active_devices: 0 };
  return { ...stats, services: Object.fromEntries(SERVICES.map((service) => [service, { ...zero, ...(services[service] ?? {}) }])) };
}

/** Per payload type, the sum of metric rows. */
const byType = (rows: Array<{ counts: Record<string, number> }>) =>
  Object.fromEntries(PAYLOAD_TYPES.map((type) => [type, rows.reduce((sum, row) => sum + (row.counts[type] ?? 0), 0)]));

/** Every endpoint that shows a count against the lists, and against each other. */
async function assertConsistent(): Promise<{ used: Record<string, number>; stored: Record<string, number> }> {
  const [users, devices, groups] = await Promise.all([all<User>('/users'), all<Device>('/devices'), all<{ group_reference: string; stats: Json }>('/groups')]);
  const expected = expectedFrom(users, devices);

  // GET licenses: the onboarded users per service; the internal console's licences and clients say the same.
  const licences = await call('GET', '/licenses');
  const usage = licences.data as Usage[];
  expect(Object.fromEntries(usage.map((entry) => [entry.service, entry.used]))).toEqual(expected.used);
  const internalLicences = await internal(`/licenses?client=${tenant.client}`);
  expect((internalLicences.data as Json[])[0]).toEqual(licences);
  expect((await clientSummary()).limits).toEqual(Object.fromEntries(usage.map((entry) => [entry.service, entry.limit])));

  // Each group's stats, and their licence share adds up to the tenant's use (every user here has a group).
  for (const group of groups) {
    const want = expected.stats[group.group_reference] ?? withEveryService({ device_users: 0, expected_devices: 0, actual_devices: 0 });
    expect(withEveryService(group.stats), `stats of ${group.group_reference}`).toEqual(withEveryService(want as Json));
    const one = await call('GET', `/groups/${group.group_reference}`);
    expect(one.stats).toEqual(group.stats);
  }
  for (const service of SERVICES) {
    const shares = groups.reduce((sum, group) => sum + (((group.stats.services as Record<string, Json> | undefined)?.[service]?.used_licenses as number | undefined) ?? 0), 0);
    expect(shares, `group shares of ${service}`).toBe(expected.used[service]);
  }

  // The dashboard: devices and users by state as the lists hold them; the internal statistics show the same.
  const dashboard = await call('GET', '/dashboard');
  expect(dashboard.devices).toEqual(expected.dashboard.devices);
  expect(dashboard.users).toEqual(expected.dashboard.users);
  const statistics = ((await internal(`/statistics?client=${tenant.client}`)).data as Json[])[0]!;
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, value) => total + value, 0);
  expect(statistics).toMatchObject({ devices: sum(expected.dashboard.devices), device_users: sum(expected.dashboard.users) });
  expect((statistics.stores as Json).licences).toEqual(usage);

  // Recordings: the metrics (all time, and by day over the overview's week: its source) count the recordings stored
  // (those that reached Processed, kept through retention), as the recording lists show them; so do the statistics.
  const payloads = await all<{ payload_type: string; payload_state: string; processed_at?: string }>('/payloads');
  const storedStates = new Set(['Processed', 'Transferred', 'Deleted', 'Destroyed']);
  const stored = Object.fromEntries(
    PAYLOAD_TYPES.map((type) => [type, payloads.filter((payload) => payload.payload_type === type && storedStates.has(payload.payload_state) && payload.processed_at !== undefined).length]),
  );
  const summary = byType(await all<{ counts: Record<string, number> }>('/metrics/Summary'));
  const daily = byType(await all<{ counts: Record<string, number> }>(`/metrics/Daily?from=${weekAgo}&to=${today}`));
  expect(summary).toEqual(stored);
  expect(daily).toEqual(stored);
  expect(statistics.payloads).toBe(sum(stored));
  return { used: expected.used, stored };
}

beforeAll(async () => {
  tenant = await createRunTenant('counts');
  staff = (await signIn('staff@verity.test')).id_token;
  admin = await portalTokenFor(tenant.client, { sub: `${tenant.client}-admin`, email: `admin@${tenant.client}.test`, groups: ['admin'] });
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(tenant.deps, client)).enrolmentKey };
  for (const group of ['desk-a', 'desk-b']) await call('PUT', `/groups/${group}`, { tags: [] });
  await onboard('du-ann', 'desk-a', ['calls', 'sms']);
  await onboard('du-ben', 'desk-a', ['calls'], 2);
  await onboard('du-cat', 'desk-b', ['calls', 'interviews']);
  await onboard('du-dan', 'desk-b', ['sms']);
  await call('DELETE', '/users/du-dan');

  await phoneOf('ann', 'du-ann', 1);
  const ben = await phoneOf('ben', 'du-ben', 2);
  await phoneOf('cat', 'du-cat', 3);
  await phoneOf('spare', undefined, 4);
  await call('DELETE', `/devices/${ben.device_reference}`);

  await recordExpecting(phones.ann!, 'Call', 'processed');
  await recordExpecting(phones.ann!, 'Call', 'failed', { tamper: true });
  await recordExpecting(phones.cat!, 'Interview', 'processed');
  await recordExpecting(phones.cat!, 'Call', 'processed');
}, 240_000);

afterAll(async () => {
  await tenant?.close();
});

describe('counts from one source', () => {
  it('every endpoint that shows a count agrees with the lists, and with each other', async () => {
    const { used, stored } = await assertConsistent();
    // The numbers themselves: three onboarded users have calls, one sms (the other left), one interviews.
    expect(used).toMatchObject({ calls: 3, sms: 1, interviews: 1 });
    // Three calls captured, one failed its check: two stored; the failed one is a capture, not a recording.
    expect(stored).toMatchObject({ Call: 2, Interview: 1 });
  }, CASE_TIMEOUT);

  it('a group change, a service change and a re-enrolment move the counts with them', async () => {
    await call('PUT', '/users/du-ann', { group: 'desk-b', services: ['calls'], expected_device_count: 1, email: 'du-ann@example.test', first_name: 'Count', surname: 'du-ann', is_active: true });
    // The phone follows its user at its next authentication (the device protocol), with the user's services.
    const again = await enrol(sim, { name: 'ann-2', client: tenant.client, phoneNumbers: phones.ann!.phone_numbers });
    expect(again.result.status).toBe(200);
    const { used } = await assertConsistent();
    expect(used).toMatchObject({ calls: 3, sms: 0 });
  }, CASE_TIMEOUT);

  it('counters written wrong (as before licence use moved with every write) are repaired by the recount job', async () => {
    const { client, deps } = tenant;
    // What main used to leave: no licence use, no per-service group counts, a dashboard off by some.
    await deps.table.update(keys.licence.item(client), { set: Object.fromEntries(SERVICES.map((service) => [usedAttribute(service), 0])) });
    await deps.table.update(keys.group.item(client, 'desk-a'), {
      set: { [statsAttribute('used_licenses', 'calls')]: 0, [statsAttribute('active_devices', 'calls')]: 0, [statsAttribute('actual_devices')]: 7 },
    });
    await deps.table.update(keys.device.dashboardCounters(client), { set: { dev_activated: 40, usr_offboarded: 0 } });
    await expect(assertConsistent()).rejects.toThrow();

    const dry = await countersRecountJob(deps, { client, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, clients: 1, repaired: 1 });
    await expect(assertConsistent()).rejects.toThrow();
    const repaired = await countersRecountJob(deps, { client });
    expect(repaired).toMatchObject({ clients: 1, repaired: 1 });
    await assertConsistent();
    // Idempotent: nothing left to change.
    expect(await countersRecountJob(deps, { client })).toMatchObject({ clients: 1, repaired: 0 });
  }, CASE_TIMEOUT);

  it('after a legacy import the same counts are right', async () => {
    const run = Date.now().toString(36);
    const lines = [
      JSON.stringify({ kind: 'verity-legacy-export', version: 1, source: 'Legacy Recorder' }),
      JSON.stringify({ kind: 'group', group_reference: `legacy-${run}` }),
      JSON.stringify({ kind: 'device_user', device_user_reference: `lu-eve-${run}`, group: `legacy-${run}`, services: ['calls', 'videos'], is_active: true }),
      JSON.stringify({ kind: 'device_user', device_user_reference: `lu-fay-${run}`, group: 'desk-a', services: ['calls'], is_active: true }),
      JSON.stringify({ kind: 'device_user', device_user_reference: `lu-gus-${run}`, group: `legacy-${run}`, services: ['sms'], is_active: false }),
      JSON.stringify({ kind: 'device', device_reference: `ld-1-${run}`, device_user_reference: `lu-eve-${run}`, is_deactivated: false }),
      JSON.stringify({ kind: 'device', device_reference: `ld-2-${run}`, device_user_reference: `lu-fay-${run}`, is_deactivated: false }),
      JSON.stringify({ kind: 'device', device_reference: `ld-3-${run}`, device_user_reference: `lu-gus-${run}`, is_deactivated: true }),
    ];
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    const created = (await call('POST', '/migrations', { filename: 'counts.ndjson', size_bytes: bytes.length })) as unknown as MigrationSubmission;
    const upload = await fetch(created.upload_url, { method: 'PUT', headers: created.upload_headers, body: bytes });
    expect(upload.status).toBe(200);
    const reference = created.migration.migration_reference;
    await call('POST', `/migrations/${reference}/start`);
    const deadline = Date.now() + 60_000;
    let migration: Json;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      migration = await call('GET', `/migrations/${reference}`);
      if (Date.now() > deadline) throw new Error(`Migration still ${String(migration.migration_state)}`);
    } while (migration.migration_state === 'Pending');
    expect(migration.migration_state, JSON.stringify(migration)).toBe('Migrated');

    const { used } = await assertConsistent();
    expect(used).toMatchObject({ calls: 5, videos: 1, sms: 0 });
  }, CASE_TIMEOUT);

  it('after retention runs the counts follow what it disposed of, and still agree', async () => {
    const { client, deps } = tenant;
    const before = await assertConsistent();
    const processedCalls = async () => ((await call('GET', '/payloads?payload_types=Call&payload_state=Processed&result_type=total')).count as number);
    const callsBefore = await processedCalls();
    expect(callsBefore).toBe(2);
    // A shorter period waits for a second approver (four eyes): `applied` approves it as the tenant's second admin.
    const shortened = await tenant.applied('PUT', '/account/retention', admin, { PayloadData: [{ payload_type: 'Call', delete_after_days: 1 }], DeviceUserData: { delete_after_days: 1 } });
    expect(shortened.status, JSON.stringify(shortened.body)).toBe(200);
    let next: Record<string, unknown> | undefined = { client, now: new Date(Date.now() + 3 * DAY).toISOString() };
    while (next !== undefined) {
      const starts: Array<Record<string, unknown>> = [];
      await retentionJob({ ...deps, jobs: { start: async (_job, more) => void starts.push(more) } }, next);
      next = starts[0];
    }
    // The calls are deleted (the lists still show them, Deleted); the offboarded user's record is gone from the lists.
    expect(await processedCalls()).toBe(0);
    const users = await all<User>('/users');
    expect(users.some((user) => user.device_user_reference === 'du-dan')).toBe(false);
    const dashboard = await call('GET', '/dashboard');
    expect((dashboard.users as Record<string, number>).offboarded).toBe(0);

    const after = await assertConsistent();
    // Licence use counts onboarded users, which retention never disposes of; the metrics record what was stored.
    expect(after.used).toEqual(before.used);
    expect(after.stored).toEqual(before.stored);
  }, CASE_TIMEOUT);
});
