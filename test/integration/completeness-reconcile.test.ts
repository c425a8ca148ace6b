import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntryReport, LedgerReport } from '#shared/contract/entities/completeness.ts';
import type { LedgerOutcome } from '#shared/constants/completeness.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import { countsOf, readCompletenessCounters } from '#core/store/entities/completeness-counters.ts';
import { readLedgerEntry } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/public.ts';
import { gapAlertKey } from '../../lambdas/completeness/alerts/gap-alerts.ts';
import { completenessSweepJob } from '../../lambdas/completeness/jobs/completeness-sweep.ts';
import { demoRecordings, uploadRecording, type Recording } from '../../scripts/device/recorder.ts';
import { enrol, sealedUpload, type Simulator } from '../../scripts/device/simulator.ts';
import { wavSeconds, demoMedia } from '../../scripts/device/demo-media.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { stack } from './support/stack.ts';

/**
 * Capture completeness end to end through the device protocol, against the local stack (DynamoDB Local, s3rver and
 * the stack's own processing): a phone's ledger reports 20 calls and 10 messages; it uploads and registers every
 * recording but 3 (sealed media and meta with numbers, directions, times and durations), some before the ledger and
 * some after, so both orders of matching run. Of the 3: one is short (its recording stops well before the call did),
 * one is uploaded only after the sweep made its entry Missing, one is never uploaded. The tenant's grace is 1 hour,
 * and the late and never-uploaded calls started 3 hours ago, so the real sweep (the real clock) finds them past due.
 */
let tenant: RunTenant;
let sim: Simulator;
let phone: DeviceState;

const GROUP = 'desk-a';
const USER = 'du-carla';
const PHONE_NUMBER = `07${String(Date.now()).slice(-9)}`;
const MINUTE = 60_000;
const CALL_SECONDS = wavSeconds(demoMedia('call.wav'));

/** A party's number in the international form the recording carries, and the national one the call log shows. */
const party = (n: number) => ({ international: `+4477009${String(100 + n).padStart(5, '0')}`, national: `077009${String(100 + n).padStart(5, '0')}` });

interface Planned {
  entry: LedgerEntryReport;
  recording: Recording;
  /** When the phone sends it: before its ledger, after it, after the sweep, or never. */
  when: 'before-ledger' | 'after-ledger' | 'after-sweep' | 'never';
  outcome: LedgerOutcome;
}

function plannedCall(n: number, at: Date, when: Planned['when'], outcome: LedgerOutcome, shortSeconds = 0): Planned {
  const number = party(n);
  const [recording] = demoRecordings('Call', { at, otherNumber: number.international, direction: n % 2 === 0 ? 'O' : 'I', shortSeconds, seed: n });
  return {
    entry: { entry_id: `call-${n}`, payload_type: 'Call', phone_number: number.national, direction: n % 2 === 0 ? 'O' : 'I', start_time: at.toISOString(), duration: CALL_SECONDS + shortSeconds },
    recording: recording as Recording,
    when,
    outcome,
  };
}

function plannedMessage(n: number, at: Date, when: Planned['when']): Planned {
  const number = party(100 + n);
  // Every fifth is an MMS: the thread's picture, as the simulator's thread carries one.
  const thread = demoRecordings('SMS', { at, otherNumber: number.international, seed: 100 + n });
  const recording = (n % 5 === 4 ? thread.at(-1) : demoRecordings('SMS', { at, otherNumber: number.international, seed: 100 + n, text: `Message ${n}`, direction: 'I' })[0]) as Recording;
  const meta = recording.meta as { payload_time: string; thread_id: string; direction: 'I' | 'O' };
  return {
    entry: {
      entry_id: `msg-${n}`,
      payload_type: recording.type === 'MMS' ? 'MMS' : 'SMS',
      thread_id: meta.thread_id,
      phone_number: number.national,
      direction: meta.direction,
      start_time: new Date(meta.payload_time).toISOString(),
    },
    recording,
    when,
    outcome: 'Captured',
  };
}

const now = new Date();
const recent = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE);
/**
 * 17 calls captured, one short, one late, one never uploaded; 10 messages captured. Every party differs, so each
 * matches its own; the captured ones started within the last half hour, so a slow machine still uploads them well
 * inside their grace of 1 hour.
 */
const plan: Planned[] = [
  ...Array.from({ length: 17 }, (_, index) => plannedCall(index, recent(31 - index * 1.5), index % 2 === 0 ? 'before-ledger' : 'after-ledger', 'Captured')),
  plannedCall(17, recent(2), 'after-ledger', 'Short', 45),
  plannedCall(18, recent(180), 'after-sweep', 'Captured late'),
  plannedCall(19, recent(175), 'never', 'Missing'),
  ...Array.from({ length: 10 }, (_, index) => plannedMessage(index, recent(30 - index * 2.5), index % 2 === 0 ? 'after-ledger' : 'before-ledger')),
];
const ledger: LedgerReport = { covered_to: now.toISOString(), entries: plan.map((planned) => planned.entry) };

async function upload(when: Planned['when']): Promise<void> {
  for (const planned of plan.filter((one) => one.when === when)) {
    const result = await uploadRecording(sim, phone, planned.recording);
    expect(result.state, `${planned.entry.entry_id} ${JSON.stringify(result.refused?.body)}`).toBe('processed');
  }
}

async function entryOutcomes(): Promise<Record<string, string>> {
  const items = await tenant.deps.table.batchGet(plan.map((planned) => keys.ledgerEntry.key(tenant.client, phone.device_reference, planned.entry.entry_id)), { consistent: true });
  return Object.fromEntries(items.map(readLedgerEntry).map((entry) => [entry.entry_id, entry.outcome]));
}

/** The counts of the device over every day the plan touches, from its own counter items (summed). */
async function deviceCounts() {
  const page = await tenant.deps.table.query({ ...keys.completenessCounters.listDevice(tenant.client, phone.device_reference), consistent: true });
  const counters: Record<string, number> = {};
  for (const item of page.items.map(readCompletenessCounters)) for (const [name, value] of Object.entries(item.counters)) counters[name] = (counters[name] ?? 0) + value;
  return countsOf({ counters });
}

const sweep = () => completenessSweepJob(tenant.deps, { client: tenant.client });
const dayOf = (time: string) => time.slice(0, 10);

/** The device's gap alert of a day: its state and occurrences, or undefined when none was raised. */
async function gapAlert(day: string) {
  const pointer = await tenant.deps.table.get(keys.alert.scopedKey(tenant.client, 'ops', gapAlertKey(phone.device_reference, day)), { consistent: true });
  if (pointer === undefined) return undefined;
  const alert = await tenant.deps.table.get(keys.alert.key(tenant.client, readAlertKey(pointer).alert_reference), { consistent: true });
  return alert === undefined ? undefined : readAlert(alert);
}

/** Gaps (Short or Missing at some point) by UTC day: what each day's alert must have counted. */
function gapsByDay(): Map<string, number> {
  const days = new Map<string, number>();
  for (const planned of plan.filter((one) => one.outcome !== 'Captured')) {
    const day = dayOf(planned.entry.start_time);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return days;
}

/** The tenant's admin signed in to the portal (account defaults take portal sign-in only). */
const adminSignIn = (run: RunTenant) => portalTokenFor(run.client, { sub: `${run.client}-admin`, email: `admin@${run.client}.test`, groups: ['admin'] });

beforeAll(async () => {
  tenant = await createRunTenant('cmp');
  const { client, deps } = tenant;
  const defaults = await tenant.call('PUT', '/account/defaults', await adminSignIn(tenant), { cidr_ranges: [], completeness_grace_hours: 1, silent_device_hours: 24 });
  expect(defaults).toMatchObject({ status: 200, body: { completeness_grace_hours: 1, silent_device_hours: 24 } });
  await deps.table.put({
    ...keys.deviceUser.item(client, USER, GROUP),
    client,
    device_user_reference: USER,
    group: GROUP,
    first_name: 'Carla',
    surname: 'Cruz',
    services: ['calls', 'sms', 'mms'],
    expected_device_count: 1,
    is_active: true,
    is_legacy: false,
  });
  await deps.table.put({ ...keys.phoneNumber.item(client, PHONE_NUMBER), client, phone_number: PHONE_NUMBER, device_user_reference: USER });
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (name) => (await deviceKeysOf(deps, name)).enrolmentKey };
  const enrolled = await enrol(sim, { name: 'carla', client, phoneNumbers: [PHONE_NUMBER], model: 'Pixel 8' });
  expect(enrolled.result.status).toBe(200);
  phone = enrolled.state;
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('capture completeness through the device protocol', () => {
  it('reconciles 20 calls and 10 messages: 27 captured, 1 short, 1 missing, 1 captured late, each gap alerted once per day', async () => {
    expect(plan.filter((one) => one.entry.payload_type === 'Call')).toHaveLength(20);
    expect(plan.filter((one) => one.entry.payload_type !== 'Call')).toHaveLength(10);

    // Recordings first (they wait for their entries), then the ledger, then the rest (they find their entries).
    await upload('before-ledger');
    const reported = await sealedUpload<{ accepted: number; already_recorded: number }>(sim, phone, 'ledger', ledger);
    expect(reported).toMatchObject({ status: 200, body: { accepted: 30, already_recorded: 0 } });
    // The phone resends its report (it lost the answer): nothing is stored or counted twice.
    expect(await sealedUpload(sim, phone, 'ledger', ledger)).toMatchObject({ status: 200, body: { accepted: 0, already_recorded: 30 } });
    await upload('after-ledger');

    const beforeSweep = await entryOutcomes();
    expect(beforeSweep['call-17']).toBe('Short');
    expect([beforeSweep['call-18'], beforeSweep['call-19']]).toEqual(['Pending', 'Pending']);
    expect(await deviceCounts()).toMatchObject({ expected: 30, captured: 27, short: 1, pending: 2, missing: 0, captured_late: 0, unexpected: 0 });

    // The hourly sweep, on the real clock: the two calls of 3 hours ago are past their grace of 1 hour. (The stack's own
    // hourly schedule may have swept this tenant a moment before in a long run: the moves are then its, not this run's.)
    const swept = await sweep();
    expect(swept).toMatchObject({ outcome: 'done', matched_late: 0, unexpected: 0 });
    expect(swept.moved_missing).toBeLessThanOrEqual(2);
    expect(await entryOutcomes()).toMatchObject({ 'call-18': 'Missing', 'call-19': 'Missing' });
    expect(await deviceCounts()).toMatchObject({ expected: 30, captured: 27, short: 1, pending: 0, missing: 2, captured_late: 0 });
    // A second run finds nothing left to move.
    expect(await sweep()).toMatchObject({ outcome: 'done', moved_missing: 0, matched_late: 0, unexpected: 0, alerts_recovered: 0 });

    // The held recording arrives after its entry went Missing: Captured late, and the counts move with it.
    await upload('after-sweep');
    const outcomes = await entryOutcomes();
    expect(outcomes).toEqual(Object.fromEntries(plan.map((planned) => [planned.entry.entry_id, planned.outcome])));
    const counts = await deviceCounts();
    expect(counts).toEqual({ expected: 30, captured: 27, captured_late: 1, short: 1, pending: 0, missing: 1, unexpected: 0, share_complete: 28 / 30 });

    // One gap alert per device and day, its occurrences the gaps of that day (the short call, and both calls once Missing).
    for (const [day, gaps] of gapsByDay()) {
      const alert = await gapAlert(day);
      expect(alert, day).toMatchObject({ alert_type: 'DeviceAlert', alert_key_type: 'Scoped', alert_state: 'Triggered', occurrence_count: gaps });
      expect(alert?.alert_subject).toBe(`Capture gaps on ${day} from Pixel 8 (${PHONE_NUMBER})`);
    }
    const missingDay = dayOf(plan[19]?.entry.start_time ?? '');
    expect((await gapAlert(missingDay))?.alert_message).toContain('held by Carla Cruz');
  }, 300_000);

  it('answers the same counts through GET completeness', async () => {
    const answer = await tenant.call('GET', `/devices/${phone.device_reference}/completeness`, tenant.admin);
    expect(answer.status).toBe(200);
    const rows = (answer.body.data ?? []) as Array<Record<string, number>>;
    const total = (name: string) => rows.reduce((sum, row) => sum + (row[name] ?? 0), 0);
    expect(['expected', 'captured', 'captured_late', 'short', 'pending', 'missing', 'unexpected'].map(total)).toEqual([30, 27, 1, 1, 0, 1, 0]);
    const byGroup = await tenant.call('GET', `/completeness?by=group&group=${GROUP}`, tenant.admin);
    expect(byGroup.status).toBe(200);
    const groupRows = (byGroup.body.data ?? []) as Array<Record<string, number>>;
    expect(groupRows.reduce((sum, row) => sum + (row.missing ?? 0), 0)).toBe(1);
    const missing = await tenant.call('GET', `/completeness/entries?outcome=Missing&device_reference=${phone.device_reference}`, tenant.admin);
    expect(missing.status).toBe(200);
    expect(((missing.body.data ?? []) as Array<Record<string, unknown>>).map((entry) => entry.entry_id)).toEqual(['call-19']);
  });
});
