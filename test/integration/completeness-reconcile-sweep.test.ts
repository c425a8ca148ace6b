import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerReport } from '#shared/contract/entities/completeness.ts';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import { awaitingEntryToItem, readAwaitingEntry } from '#core/store/entities/awaiting-entry.ts';
import { countsOf, readCompletenessCounters } from '#core/store/entities/completeness-counters.ts';
import { ledgerEntryToItem, readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/public.ts';
import { silentAlertKey } from '../../lambdas/completeness/alerts/gap-alerts.ts';
import { completenessSweepJob } from '../../lambdas/completeness/jobs/completeness-sweep.ts';
import { counterOperations, entryStored } from '../../lambdas/completeness/reconcile/counter-moves.ts';
import { demoRecordings, uploadRecording, type Recording } from '../../scripts/device/recorder.ts';
import { enrol, sealedUpload, sendTelemetry, type Simulator } from '../../scripts/device/simulator.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { stack } from './support/stack.ts';

/**
 * The completeness sweep's edge cases against the local stack (DynamoDB Local evaluates every condition): a Pending
 * entry and the recording awaiting it that missed each other are matched by the sweep; a recording no entry explained
 * is Unexpected once the phone's ledger covers its time, and stops being so (its count taken back) when a later ledger
 * report explains it; a silent phone raises its alert once while it stays silent, and a phone never heard from none.
 * Each part has a tenant of its own, so a sweep of one never moves another's.
 */
const HOUR = 3_600_000;
let sim: Simulator;
const tenants: RunTenant[] = [];

async function tenantWith(prefix: string, defaults: { grace: number; silent: number }): Promise<RunTenant> {
  const tenant = await createRunTenant(prefix);
  tenants.push(tenant);
  const answer = await tenant.call('PUT', '/account/defaults', await adminSignIn(tenant), {
    cidr_ranges: [],
    completeness_grace_hours: defaults.grace,
    silent_device_hours: defaults.silent,
  });
  expect(answer.status).toBe(200);
  return tenant;
}

async function phoneOf(tenant: RunTenant, name: string): Promise<DeviceState> {
  const number = `07${String(Date.now() + Math.floor(Math.random() * 1e6)).slice(-9)}`;
  const enrolled = await enrol(sim, { name, client: tenant.client, phoneNumbers: [number], model: 'Pixel 8' });
  expect(enrolled.result.status).toBe(200);
  return enrolled.state;
}

async function deviceCounts(tenant: RunTenant, device: string) {
  const page = await tenant.deps.table.query({ ...keys.completenessCounters.listDevice(tenant.client, device), consistent: true });
  const counters: Record<string, number> = {};
  for (const item of page.items.map(readCompletenessCounters)) for (const [name, value] of Object.entries(item.counters)) counters[name] = (counters[name] ?? 0) + value;
  return countsOf({ counters });
}

/** The tenant's admin signed in to the portal (account defaults take portal sign-in only). */
const adminSignIn = (run: RunTenant) => portalTokenFor(run.client, { sub: `${run.client}-admin`, email: `admin@${run.client}.test`, groups: ['admin'] });

beforeAll(async () => {
  const probe = await createRunTenant('cmpk');
  tenants.push(probe);
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(probe.deps, client)).enrolmentKey };
}, 60_000);

afterAll(async () => {
  for (const tenant of tenants) await tenant.close();
});

describe('the completeness hours (account defaults)', () => {
  it('are 24 until set, kept as set, and out-of-bounds or fractional hours are refused per field with a 400', async () => {
    const tenant = await createRunTenant('cmpd');
    tenants.push(tenant);
    const admin = await adminSignIn(tenant);
    expect((await tenant.call('GET', '/account/defaults', admin)).body).toMatchObject({ completeness_grace_hours: 24, silent_device_hours: 24 });
    const refused = await tenant.call('PUT', '/account/defaults', admin, { cidr_ranges: [], completeness_grace_hours: 0, silent_device_hours: 2.5 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      'body.completeness_grace_hours: Must be a number between 1 and 336',
      expect.stringMatching(/^body\.silent_device_hours: /),
    ]);
    expect((await tenant.call('PUT', '/account/defaults', admin, { cidr_ranges: [], completeness_grace_hours: '12' })).status).toBe(400);
    expect((await tenant.call('PUT', '/account/defaults', admin, { cidr_ranges: [], completeness_grace_hours: 336 })).body).toMatchObject({ completeness_grace_hours: 336, silent_device_hours: 24 });
    expect((await tenant.call('GET', '/account/defaults', admin)).body).toMatchObject({ completeness_grace_hours: 336, silent_device_hours: 24 });
  });
});

describe('the completeness sweep', () => {
  it('matches a Pending entry past due to the recording awaiting it that it missed (a race of intake and processing)', async () => {
    const tenant = await tenantWith('cmpr', { grace: 1, silent: 24 });
    const { client, deps } = tenant;
    const device = 'DEV-RACE';
    const start = new Date(Date.now() - 3 * HOUR).toISOString();
    // What a race leaves: the recording processed before the entry was stored (a marker), the entry stored before
    // the marker was visible (Pending), both with their counts as intake and processing write them.
    await deps.table.put(
      awaitingEntryToItem(client, {
        payload_reference: '01JRACE0000000000000000001',
        payload_type: 'Call',
        payload_time: start,
        device_reference: device,
        direction: 'O',
        numbers: ['700900042'],
        recording_duration: 60,
        uploaded_at: new Date(Date.parse(start) + 120_000).toISOString(),
        unexpected: false,
        day: start.slice(0, 10),
      }),
    );
    const entry: LedgerEntryItem = {
      entry_id: 'call-race',
      payload_type: 'Call',
      phone_number: '07700 900042',
      direction: 'O',
      start_time: start,
      duration: 62,
      device_reference: device,
      outcome: 'Pending',
      reported_at: start,
      outcome_at: start,
      due_at: new Date(Date.parse(start) + 62_000 + HOUR).toISOString(),
      day: start.slice(0, 10),
    };
    await deps.table.transactWrite([{ kind: 'put', item: ledgerEntryToItem(client, entry) }, ...counterOperations(client, [entryStored(entry, 'Call', 'Pending')])]);

    expect(await completenessSweepJob(deps, { client })).toMatchObject({ outcome: 'done', matched_late: 1, moved_missing: 0 });
    const stored = readLedgerEntry((await deps.table.get(keys.ledgerEntry.key(client, device, 'call-race'), { consistent: true }))!);
    // Uploaded within its grace: Captured, whatever the time the sweep found it.
    expect(stored).toMatchObject({ outcome: 'Captured', payload_reference: '01JRACE0000000000000000001', recording_duration: 60 });
    expect(await deps.table.get(keys.awaitingEntry.key(client, device, start, '01JRACE0000000000000000001'), { consistent: true })).toBeUndefined();
    expect(await deviceCounts(tenant, device)).toMatchObject({ expected: 1, captured: 1, pending: 0, missing: 0, unexpected: 0 });
  });

  it('marks a recording no entry explains Unexpected once the ledger covers it, and takes it back when a later report explains it', async () => {
    const tenant = await tenantWith('cmpu', { grace: 1, silent: 24 });
    const phone = await phoneOf(tenant, 'unexplained');
    const at = new Date(Date.now() - 3 * HOUR);
    const [sms] = demoRecordings('SMS', { at, text: 'Sent before the ledger said so', otherNumber: '+447700900777', direction: 'O', seed: 7 }) as Recording[];
    expect((await uploadRecording(sim, phone, sms as Recording)).state).toBe('processed');

    // Nothing is Unexpected while the phone's ledger has not covered the recording's time.
    const sweep = () => completenessSweepJob(tenant.deps, { client: tenant.client });
    expect(await sweep()).toMatchObject({ unexpected: 0 });
    // A quiet report (no entries) covering up to now: the phone saw nothing it has not said.
    const quiet: LedgerReport = { covered_to: new Date().toISOString(), entries: [] };
    expect(await sealedUpload(sim, phone, 'ledger', quiet)).toMatchObject({ status: 200, body: { accepted: 0 } });
    expect(await sweep()).toMatchObject({ unexpected: 1 });
    expect(await deviceCounts(tenant, phone.device_reference)).toMatchObject({ expected: 0, unexpected: 1 });
    expect(await sweep()).toMatchObject({ unexpected: 0 });
    const listed = await tenant.deps.table.query({ ...keys.ledgerEntry.listByOutcome(tenant.client, 'Unexpected') });
    expect(listed.items.map(readAwaitingEntry).map((marker) => [marker.unexpected, marker.device_reference])).toEqual([[true, phone.device_reference]]);

    // The phone's next report lists the message after all (its store was read late): the marker is consumed, the
    // Unexpected count taken back on the same day's items, and the entry counted by its own outcome.
    const meta = (sms as Recording).meta as { thread_id: string; payload_time: string };
    const late: LedgerReport = {
      covered_to: new Date().toISOString(),
      entries: [{ entry_id: 'msg-late', payload_type: 'SMS', thread_id: meta.thread_id, phone_number: '07700 900777', direction: 'O', start_time: meta.payload_time }],
    };
    expect(await sealedUpload(sim, phone, 'ledger', late)).toMatchObject({ status: 200, body: { accepted: 1 } });
    const counts = await deviceCounts(tenant, phone.device_reference);
    // Uploaded two hours after its grace ended: held, and late.
    expect(counts).toMatchObject({ expected: 1, unexpected: 0, captured_late: 1, missing: 0, pending: 0 });
    expect((await tenant.deps.table.query({ ...keys.ledgerEntry.listByOutcome(tenant.client, 'Unexpected') })).items).toEqual([]);
  }, 120_000);

  it('raises a silent phone’s alert once while it stays silent, and none for a phone never heard from', async () => {
    const tenant = await tenantWith('cmps', { grace: 24, silent: 1 });
    const talker = await phoneOf(tenant, 'talker');
    const mute = await phoneOf(tenant, 'mute');
    expect((await sendTelemetry(sim, talker)).status).toBe(200);

    const sweepAt = (hoursLater: number) => completenessSweepJob({ ...tenant.deps, clock: createFixedClock(new Date(Date.now() + hoursLater * HOUR)) }, { client: tenant.client });
    expect(await sweepAt(0)).toMatchObject({ silent: 0 });
    expect(await sweepAt(2)).toMatchObject({ silent: 1 });
    expect(await sweepAt(3)).toMatchObject({ silent: 0 });

    const alertOf = async (device: string) => {
      const pointer = await tenant.deps.table.get(keys.alert.scopedKey(tenant.client, 'ops', silentAlertKey(device)), { consistent: true });
      if (pointer === undefined) return undefined;
      return readAlert((await tenant.deps.table.get(keys.alert.key(tenant.client, readAlertKey(pointer).alert_reference), { consistent: true }))!);
    };
    expect(await alertOf(talker.device_reference)).toMatchObject({ alert_type: 'DeviceAlert', alert_state: 'Triggered', occurrence_count: 1 });
    expect((await alertOf(talker.device_reference))?.alert_message).toMatch(/has sent nothing for more than 1 hour \(no ledger report and its last telemetry at /);
    expect(await alertOf(mute.device_reference)).toBeUndefined();
  }, 120_000);
});
