import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_ENTRIES_MAX } from '#shared/constants/completeness.ts';
import type { LedgerEntryReport, LedgerReport } from '#shared/contract/entities/completeness.ts';
import { accountDefaultsKey, accountDefaultsToItem, legacyAccountDefaults, readAccountDefaults } from '#core/store/entities/account-defaults.ts';
import { readAwaitingEntry } from '#core/store/entities/awaiting-entry.ts';
import { countsOf, readCompletenessCounters } from '#core/store/entities/completeness-counters.ts';
import { ledgerEntryToItem, readLedgerEntry, readLedgerWatermark, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import { completenessSweepJob, gapAlertKey, reconcileProcessed } from '../../lambdas/completeness/public.ts';
import { counterOperations, entryStored } from '../../lambdas/completeness/reconcile/counter-moves.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/public.ts';
import { wavSeconds, demoMedia } from '../../scripts/device/demo-media.ts';
import type { DeviceState } from '../../scripts/device/device-state.ts';
import { demoRecordings, uploadRecording, type Recording } from '../../scripts/device/recorder.ts';
import { sealUpload } from '../../lambdas/device-crypto/envelope.ts';
import { deviceCall, enrol, fetchKek, sealedUpload, type CallResult, type Simulator } from '../../scripts/device/simulator.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * The ledger intake (`POST /device/v1/ledger`) and the processing hook against the local stack (DynamoDB Local,
 * s3rver, the stack's own processing): a real phone enrols, seals its ledger as the app does and uploads real
 * recordings. Both arrival orders, the resend, the processing run twice, and the hostile reports: each refused with a
 * 4xx naming its path, never a 5xx, and never a change to this phone's entries or counts.
 */
let tenant: RunTenant;
let sim: Simulator;
let phone: DeviceState;
let otherPhone: DeviceState;

const GROUP = 'desk-ledger';
const USER = 'du-lena';
const PHONE_NUMBER = `07${String(Date.now()).slice(-9)}`;
const OTHER_NUMBER = `07${String(Date.now() + 3).slice(-9)}`;
const MINUTE = 60_000;
const CALL_SECONDS = wavSeconds(demoMedia('call.wav'));
const now = Date.now();
/** Minutes ago, far enough apart (> MATCH_TOLERANCE_SECONDS) that each recording can only match its own entry. */
const ago = (minutes: number) => new Date(now - minutes * MINUTE);

type Accepted = { accepted: number; already_recorded: number };
const report = (entries: unknown[], coveredTo = new Date().toISOString()) => ({ covered_to: coveredTo, entries });
const send = (state: DeviceState, body: unknown) => sealedUpload<Accepted>(sim, state, 'ledger', body);

function callEntry(id: string, at: Date, number: string, duration = CALL_SECONDS): Extract<LedgerEntryReport, { payload_type: 'Call' }> {
  return { entry_id: id, payload_type: 'Call', phone_number: number, direction: 'O', start_time: at.toISOString(), duration };
}

async function uploaded(recording: Recording): Promise<string> {
  // Polls for up to 2 minutes: the shared machine may be slow to process.
  const result = await uploadRecording(sim, phone, recording, { polls: 600 });
  expect(result.state, JSON.stringify(result.refused?.body)).toBe('processed');
  return result.payload_reference as string;
}

async function entryOf(state: DeviceState, id: string) {
  const item = await tenant.deps.table.get(keys.ledgerEntry.key(tenant.client, state.device_reference, id), { consistent: true });
  return item === undefined ? undefined : readLedgerEntry(item);
}

async function markersOf(state: DeviceState) {
  const page = await tenant.deps.table.query({ ...keys.awaitingEntry.listByDevice(tenant.client, state.device_reference), consistent: true });
  return page.items.map(readAwaitingEntry);
}

/** The device's counts over every day, from its own counter items. */
async function countsOfDevice(state: DeviceState) {
  const page = await tenant.deps.table.query({ ...keys.completenessCounters.listDevice(tenant.client, state.device_reference), consistent: true });
  const counters: Record<string, number> = {};
  for (const item of page.items.map(readCompletenessCounters)) for (const [name, value] of Object.entries(item.counters)) counters[name] = (counters[name] ?? 0) + value;
  return countsOf({ counters });
}

/** The tenant's counts of one day (all types). */
async function tenantDay(day: string) {
  const item = await tenant.deps.table.get(keys.completenessCounters.tenantDay(tenant.client, day), { consistent: true });
  return item === undefined ? undefined : countsOf(readCompletenessCounters(item));
}

const refusedWith = (result: CallResult<Accepted>, status: number, line: string | RegExp) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.message).toMatch(line);
};

beforeAll(async () => {
  tenant = await createRunTenant('ldg');
  const { client, deps } = tenant;
  await deps.table.put({
    ...keys.deviceUser.item(client, USER, GROUP),
    client,
    device_user_reference: USER,
    group: GROUP,
    first_name: 'Lena',
    surname: 'Lind',
    services: ['calls', 'sms', 'mms'],
    expected_device_count: 2,
    is_active: true,
    is_legacy: false,
  });
  await deps.table.put({ ...keys.phoneNumber.item(client, PHONE_NUMBER), client, phone_number: PHONE_NUMBER, device_user_reference: USER });
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (name) => (await deviceKeysOf(deps, name)).enrolmentKey };
  const first = await enrol(sim, { name: 'lena', client, phoneNumbers: [PHONE_NUMBER], model: 'Pixel 8' });
  const second = await enrol(sim, { name: 'spare', client, phoneNumbers: [OTHER_NUMBER], model: 'Galaxy A5' });
  expect([first.result.status, second.result.status]).toEqual([200, 200]);
  phone = first.state;
  otherPhone = second.state;
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('the ledger intake and the processing hook', () => {
  it('matches in both orders: a recording waiting for its entry, and an entry waiting for its recording; a resend and a second processing run change nothing', async () => {
    // Recording first: it waits as a marker.
    const [waitingCall] = demoRecordings('Call', { at: ago(50), otherNumber: '+44 7700 900201', seed: 1 });
    const waitingReference = await uploaded(waitingCall as Recording);
    expect((await markersOf(phone)).map((marker) => marker.payload_reference)).toEqual([waitingReference]);

    // The ledger: the waiting call (national form of the number) and an SMS whose recording comes after.
    const [sms] = demoRecordings('SMS', { at: ago(40), otherNumber: '+44 7700 900202', text: 'See you at ten', direction: 'I', seed: 2 });
    const smsMeta = (sms as Recording).meta as { thread_id: string; payload_time: string };
    const ledger: LedgerReport = {
      covered_to: ago(1).toISOString(),
      entries: [
        callEntry('call-1', ago(50), '077 00 900 201'),
        { entry_id: 'msg-1', payload_type: 'SMS', thread_id: smsMeta.thread_id, direction: 'I', start_time: smsMeta.payload_time },
      ],
    };
    expect(await send(phone, ledger)).toMatchObject({ status: 200, body: { accepted: 2, already_recorded: 0 } });
    expect(await entryOf(phone, 'call-1')).toMatchObject({
      outcome: 'Captured',
      payload_reference: waitingReference,
      recording_duration: CALL_SECONDS,
      device_user_reference: USER,
      group: GROUP,
      day: ago(50).toISOString().slice(0, 10),
    });
    expect(await markersOf(phone)).toEqual([]);
    expect(await entryOf(phone, 'msg-1')).toMatchObject({ outcome: 'Pending' });
    expect(await countsOfDevice(phone)).toMatchObject({ expected: 2, captured: 1, pending: 1, missing: 0, unexpected: 0 });

    // Entry first: the SMS's recording finds it at processing.
    const smsReference = await uploaded(sms as Recording);
    expect(await entryOf(phone, 'msg-1')).toMatchObject({ outcome: 'Captured', payload_reference: smsReference });
    expect(await countsOfDevice(phone)).toEqual({ expected: 2, captured: 2, captured_late: 0, short: 0, pending: 0, missing: 0, unexpected: 0, share_complete: 1 });

    // The phone lost the answer and sends the same report again: nothing stored or counted twice.
    expect(await send(phone, ledger)).toMatchObject({ status: 200, body: { accepted: 0, already_recorded: 2 } });
    expect((await countsOfDevice(phone)).expected).toBe(2);

    // Processing runs again for the SMS (a redelivered event): it finds its own entry and changes nothing.
    const payload = readPayload((await tenant.deps.table.get(keys.payload.key(tenant.client, smsReference), { consistent: true }))!);
    expect(await reconcileProcessed(tenant.deps, tenant.client, payload, (sms as Recording).meta)).toBe('matched');
    expect(await countsOfDevice(phone)).toMatchObject({ expected: 2, captured: 2, pending: 0 });

    // The device's watermark: how far its ledger covers, never pulled back by an older report.
    const watermark = () => tenant.deps.table.get(keys.device.key(tenant.client, phone.device_reference), { consistent: true }).then((item) => readLedgerWatermark(item!));
    expect((await watermark()).ledger_covered_to).toBe(ago(1).toISOString());
    expect(await send(phone, report([], ago(30).toISOString()))).toMatchObject({ status: 200, body: { accepted: 0, already_recorded: 0 } });
    expect((await watermark()).ledger_covered_to).toBe(ago(1).toISOString());
  }, 180_000);

  it('a recording no entry explains waits once however often processing runs, and a short recording makes its entry Short', async () => {
    const [shortCall] = demoRecordings('Call', { at: ago(30), otherNumber: '+447700900203', shortSeconds: 45, seed: 3 });
    const reference = await uploaded(shortCall as Recording);
    const payload = readPayload((await tenant.deps.table.get(keys.payload.key(tenant.client, reference), { consistent: true }))!);
    expect(await reconcileProcessed(tenant.deps, tenant.client, payload, (shortCall as Recording).meta)).toBe('awaiting');
    expect((await markersOf(phone)).filter((marker) => marker.payload_reference === reference)).toHaveLength(1);

    const before = await countsOfDevice(phone);
    expect(await send(phone, report([callEntry('call-short', ago(30), '+44 7700 900203', CALL_SECONDS + 45)]))).toMatchObject({ status: 200, body: { accepted: 1 } });
    const entry = await entryOf(phone, 'call-short');
    expect(entry).toMatchObject({ outcome: 'Short', payload_reference: reference, recording_duration: CALL_SECONDS });
    // Its gap alert was raised (the flag that guards it is cleared only once it is).
    expect(entry?.alert_pending).toBeUndefined();
    const pointer = await tenant.deps.table.get(keys.alert.scopedKey(tenant.client, 'ops', gapAlertKey(phone.device_reference, entry?.day ?? '')), { consistent: true });
    const alert = await tenant.deps.table.get(keys.alert.key(tenant.client, readAlertKey(pointer!).alert_reference), { consistent: true });
    expect(readAlert(alert!)).toMatchObject({ alert_type: 'DeviceAlert', alert_key_type: 'Scoped', occurrence_count: 1 });
    expect(readAlert(alert!).alert_message).toContain('recorded short');
    expect(await countsOfDevice(phone)).toMatchObject({ expected: before.expected + 1, short: before.short + 1, captured: before.captured });
  }, 120_000);

  it('refuses hostile reports with a 4xx naming each path, and changes nothing', async () => {
    const before = await countsOfDevice(phone);
    const at = ago(20).toISOString();
    const entry = callEntry('hostile-1', ago(20), '+447700900301');

    // The same id twice in one report.
    refusedWith(await send(phone, report([entry, { ...entry, duration: 3 }])), 400, /meta\.entries\.1\.entry_id: Appears earlier in this report/);
    // More than LEDGER_ENTRIES_MAX entries.
    const many = Array.from({ length: LEDGER_ENTRIES_MAX + 1 }, (_, index) => ({ ...entry, entry_id: `bulk-${index}` }));
    refusedWith(await send(phone, report(many)), 400, /meta\.entries: /);
    // A start or a coverage in the future (beyond the clock skew allowed).
    const future = new Date(Date.now() + 3_600_000).toISOString();
    refusedWith(await send(phone, report([entry, { ...entry, entry_id: 'hostile-2', start_time: future }])), 400, /meta\.entries\.1\.start_time: Must not be in the future/);
    refusedWith(await send(phone, report([entry], future)), 400, /meta\.covered_to: Must not be in the future/);
    // A device named inside an entry, an unknown field, a call longer than a day, a message without its thread.
    refusedWith(await send(phone, report([{ ...entry, device_reference: otherPhone.device_reference }])), 400, /meta\.entries\.0/);
    refusedWith(await send(phone, { ...report([entry]), device_reference: otherPhone.device_reference }), 400, /meta/);
    refusedWith(await send(phone, report([{ ...entry, duration: 86_401 }])), 400, /meta\.entries\.0\.duration/);
    refusedWith(await send(phone, report([{ entry_id: 'm', payload_type: 'SMS', direction: 'I', start_time: at }])), 400, /meta\.entries\.0\.thread_id/);
    refusedWith(await send(phone, report([{ ...entry, payload_type: 'Fax' }])), 400, /meta\.entries\.0\.payload_type/);
    // A telemetry envelope posted as a ledger does not open.
    const { result: keyAnswer, kek } = await fetchKek(sim, phone);
    const sealedAsTelemetry = sealUpload({ kek: kek!, client: tenant.client, keyId: keyAnswer.body.key_id }, 'telemetry', report([entry]));
    refusedWith(await deviceCall<Accepted>(sim, phone, { method: 'POST', path: '/ledger', body: sealedAsTelemetry }), 400, /body\.meta: Does not open/);
    expect(await entryOf(phone, 'hostile-1')).toBeUndefined();
    expect(await countsOfDevice(phone)).toEqual(before);

    // Sealed as a ledger, the entry is stored.
    expect(await send(phone, report([entry]))).toMatchObject({ status: 200, body: { accepted: 1 } });

    // The same id with other facts: 409 naming it, and nothing of that report is stored (the new id beside it neither).
    const changed = await send(phone, report([{ ...entry, entry_id: 'hostile-new' }, { ...entry, duration: entry.duration + 30 }]));
    refusedWith(changed, 409, /meta\.entries\.1\.entry_id: Already recorded with other facts/);
    expect(await entryOf(phone, 'hostile-new')).toBeUndefined();
    expect(await entryOf(phone, 'hostile-1')).toMatchObject({ duration: entry.duration });

    // Only the one accepted entry counted.
    const after = await countsOfDevice(phone);
    expect(after).toMatchObject({ expected: before.expected + 1, pending: before.pending + 1, captured: before.captured });
  }, 120_000);

  it('another phone sending this phone\'s entry ids stores them in its own partition and never touches this phone\'s entries or counts', async () => {
    const mine = await countsOfDevice(phone);
    const theirs = [callEntry('call-1', ago(50), '+447700900999', 5), callEntry('hostile-1', ago(20), '+447700900998', 7)];
    expect(await send(otherPhone, report(theirs))).toMatchObject({ status: 200, body: { accepted: 2, already_recorded: 0 } });
    expect(await entryOf(otherPhone, 'call-1')).toMatchObject({ device_reference: otherPhone.device_reference, duration: 5, outcome: 'Pending' });
    expect(await entryOf(phone, 'call-1')).toMatchObject({ device_reference: phone.device_reference, outcome: 'Captured', duration: CALL_SECONDS });
    expect(await countsOfDevice(phone)).toEqual(mine);
    expect(await countsOfDevice(otherPhone)).toMatchObject({ expected: 2, pending: 2 });
    // Both phones count on the tenant's day.
    expect((await tenantDay(ago(50).toISOString().slice(0, 10)))?.expected).toBeGreaterThanOrEqual(mine.expected + 2);
  }, 60_000);

  it('stores a full report of LEDGER_ENTRIES_MAX entries, each counted once, and its resend stores nothing', async () => {
    const base = ago(300).getTime();
    const full = Array.from({ length: LEDGER_ENTRIES_MAX }, (_, index) => callEntry(`full-${index}`, new Date(base + index * 1000), `+4477009${String(index).padStart(5, '0')}`, 30));
    const before = await countsOfDevice(otherPhone);
    expect(await send(otherPhone, report(full))).toMatchObject({ status: 200, body: { accepted: LEDGER_ENTRIES_MAX, already_recorded: 0 } });
    expect(await send(otherPhone, report(full))).toMatchObject({ status: 200, body: { accepted: 0, already_recorded: LEDGER_ENTRIES_MAX } });
    expect(await countsOfDevice(otherPhone)).toMatchObject({ expected: before.expected + LEDGER_ENTRIES_MAX, pending: before.pending + LEDGER_ENTRIES_MAX });
  }, 120_000);
  it('lets one waiting recording explain one entry only, even when two entries of a report match it', async () => {
    const [redialled] = demoRecordings('Call', { at: ago(15), otherNumber: '+447700900401', seed: 4 });
    const reference = await uploaded(redialled as Recording);
    const before = await countsOfDevice(phone);
    // The call log shows the call and a redial 30 s later to the same number: both match the one recording.
    const twins = [callEntry('twin-b', new Date(ago(15).getTime() + 30_000), '+447700900401'), callEntry('twin-a', ago(15), '+447700900401')];
    expect(await send(phone, report(twins))).toMatchObject({ status: 200, body: { accepted: 2, already_recorded: 0 } });
    // The nearest in time is the call it recorded, whatever the report's order.
    expect(await entryOf(phone, 'twin-a')).toMatchObject({ outcome: 'Captured', payload_reference: reference });
    expect(await entryOf(phone, 'twin-b')).toMatchObject({ outcome: 'Pending' });
    expect((await entryOf(phone, 'twin-b'))?.payload_reference).toBeUndefined();
    expect((await markersOf(phone)).some((marker) => marker.payload_reference === reference)).toBe(false);
    expect(await countsOfDevice(phone)).toMatchObject({ expected: before.expected + 2, captured: before.captured + 1, pending: before.pending + 1 });
  }, 120_000);

  it('counts a report sent twice at once exactly once', async () => {
    const before = await countsOfDevice(otherPhone);
    const entries = Array.from({ length: 30 }, (_, index) => callEntry(`race-${index}`, new Date(ago(400).getTime() + index * 1000), '+447700900500', 12));
    const answers = await Promise.all([send(otherPhone, report(entries)), send(otherPhone, report(entries))]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answers.reduce((sum, answer) => sum + answer.body.accepted, 0)).toBe(30);
    expect(answers.reduce((sum, answer) => sum + answer.body.already_recorded, 0)).toBe(30);
    expect(await countsOfDevice(otherPhone)).toMatchObject({ expected: before.expected + 30, pending: before.pending + 30 });
  }, 120_000);
  it('an Unexpected recording later explained by its entry stops being Unexpected, and the entry counts Captured late', async () => {
    // A grace of 1 hour, and a call of 3 hours ago the ledger has not listed yet: the sweep marks it Unexpected once
    // the phone's ledger covers its time.
    // (Written as the defaults endpoint writes it: that endpoint takes portal sign-in only, which this tenant has not.)
    const stored = await tenant.deps.table.get(accountDefaultsKey(tenant.client), { consistent: true });
    const defaults = stored === undefined ? legacyAccountDefaults(tenant.client, undefined) : readAccountDefaults(stored);
    await tenant.deps.table.put(accountDefaultsToItem(tenant.client, { ...defaults, completeness_grace_hours: 1 }));
    const [unlisted] = demoRecordings('Call', { at: ago(180), otherNumber: '+447700900601', seed: 6 });
    const reference = await uploaded(unlisted as Recording);
    expect(await send(phone, report([]))).toMatchObject({ status: 200 });
    const day = ago(180).toISOString().slice(0, 10);
    const dayCounts = async () => {
      const item = await tenant.deps.table.get(keys.completenessCounters.deviceOwnDay(tenant.client, day, phone.device_reference), { consistent: true });
      return countsOf(readCompletenessCounters(item ?? { day, counters: {} }));
    };
    const before = await dayCounts();
    await completenessSweepJob(tenant.deps, { client: tenant.client });
    expect((await markersOf(phone)).find((marker) => marker.payload_reference === reference)).toMatchObject({ unexpected: true });
    expect(await dayCounts()).toMatchObject({ unexpected: before.unexpected + 1 });

    // The phone's next report lists the call: it explains the recording, late (uploaded 2 hours past the call's grace).
    expect(await send(phone, report([callEntry('call-unlisted', ago(180), '07700 900601')]))).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(await entryOf(phone, 'call-unlisted')).toMatchObject({ payload_reference: reference, outcome: 'Captured late' });
    expect((await markersOf(phone)).some((marker) => marker.payload_reference === reference)).toBe(false);
    const after = await dayCounts();
    expect(after.unexpected).toBe(before.unexpected);
    expect(after.expected).toBe(before.expected + 1);
    expect(after.captured_late).toBe(before.captured_late + 1);
  }, 180_000);
  it('a processing run again after an entry arrived unseen (intake raced it) consumes the recording\'s Unexpected marker and takes back its count', async () => {
    // Runs after the test above set a grace of 1 hour: a call of 3 hours ago, no entry, swept Unexpected.
    const [raced] = demoRecordings('Call', { at: ago(170), otherNumber: '+447700900701', seed: 7 });
    const reference = await uploaded(raced as Recording);
    expect(await send(phone, report([]))).toMatchObject({ status: 200 });
    await completenessSweepJob(tenant.deps, { client: tenant.client });
    expect((await markersOf(phone)).find((marker) => marker.payload_reference === reference)).toMatchObject({ unexpected: true });
    const day = ago(170).toISOString().slice(0, 10);
    const dayCounts = async () => countsOf(readCompletenessCounters((await tenant.deps.table.get(keys.completenessCounters.deviceOwnDay(tenant.client, day, phone.device_reference), { consistent: true }))!));
    const before = await dayCounts();

    // The entry as an intake that did not see the marker stored it: Pending, with its counts.
    const entry: LedgerEntryItem = {
      entry_id: 'call-raced', payload_type: 'Call', phone_number: '07700900701', direction: 'O', start_time: ago(170).toISOString(), duration: CALL_SECONDS,
      device_reference: phone.device_reference, device_user_reference: USER, group: GROUP, outcome: 'Pending',
      reported_at: new Date().toISOString(), outcome_at: new Date().toISOString(), due_at: new Date().toISOString(), day,
    };
    await tenant.deps.table.transactWrite([{ kind: 'put', item: ledgerEntryToItem(tenant.client, entry) }, ...counterOperations(tenant.client, [entryStored(entry, 'Call', 'Pending')])]);

    const payload = readPayload((await tenant.deps.table.get(keys.payload.key(tenant.client, reference), { consistent: true }))!);
    // The index the match reads may lag the write a moment: the run reads again until it sees the entry.
    await expect.poll(() => reconcileProcessed(tenant.deps, tenant.client, payload, (raced as Recording).meta), { timeout: 10_000 }).toBe('matched');
    expect(await entryOf(phone, 'call-raced')).toMatchObject({ outcome: 'Captured', payload_reference: reference });
    expect((await markersOf(phone)).some((marker) => marker.payload_reference === reference)).toBe(false);
    expect(await dayCounts()).toMatchObject({ expected: before.expected + 1, captured: before.captured + 1, pending: before.pending, unexpected: before.unexpected - 1 });
  }, 180_000);
});
