import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { keys } from '#core/store/keys.ts';
import { writeMdmConfig } from '../../scripts/device/mdm-config.ts';
import { loadDevice, saveDevice } from '../../scripts/device/device-state.ts';
import { record } from '../../scripts/device/recorder.ts';
import {
  authenticate,
  enrol,
  factoryReset,
  fetchKek,
  reinstall,
  sendGps,
  sendLogs,
  sendTelemetry,
  type Simulator,
} from '../../scripts/device/simulator.ts';
import { api, bearer, stack } from './support/stack.ts';
import { signIn } from './support/sign-in.ts';
import { demoMedia, wavSeconds } from '../../scripts/device/demo-media.ts';

/**
 * The device simulator end to end against the real local stack: every install_state, and the device's flags as the
 * admin API shows them. Fresh ULIDs, IMEIs and numbers per run.
 */
let deps: Dependencies;
let sim: Simulator;
const userReference = `du-sim-${ulid().toLowerCase()}`;
const userNumber = `07${String(Date.now()).slice(-9)}`;
const directory = mkdtempSync(join(tmpdir(), 'verity-sim-'));

async function adminDevice(reference: string): Promise<Record<string, unknown>> {
  const { id_token } = await signIn('admin@demo.test');
  const response = await api(`/api/v1/demo/devices/${reference}`, { headers: bearer(id_token) });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  sim = { baseUrl: stack().apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(deps, client)).enrolmentKey };
  await deps.table.put({
    ...keys.deviceUser.item('demo', userReference),
    client: 'demo',
    device_user_reference: userReference,
    services: ['calls', 'gps'],
    expected_device_count: 1,
    is_active: true,
  });
  await deps.table.put({ ...keys.phoneNumber.item('demo', userNumber), phone_number: userNumber, device_user_reference: userReference });
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('device simulator', () => {
  it('walks enrolment → NewInstall, NoChange, factory reset and reinstall → FactoryReset, no installation id → NoInstallationId', async () => {
    const { state, result } = await enrol(sim, { name: 'walker', client: 'demo', phoneNumbers: [userNumber] });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ install_state: 'NewInstall', account_reference: 'demo', enabled_services: ['calls', 'gps'] });
    const first = await adminDevice(state.device_reference);
    expect(first).toMatchObject({ device_user_reference: userReference, is_deactivated: false, is_legacy: false, imeis: state.imeis });
    expect(typeof first.activated_at).toBe('string');

    expect((await authenticate(sim, state)).body.install_state).toBe('NoChange');
    const installation = state.installation_id;
    expect((await factoryReset(sim, state)).body.install_state).toBe('FactoryReset');
    expect(state.installation_id).not.toBe(installation);
    expect((await reinstall(sim, state, '9.0.0')).body.install_state).toBe('FactoryReset');
    expect(await adminDevice(state.device_reference)).toMatchObject({ app_version: '9.0.0', activated_at: first.activated_at });

    delete state.installation_id;
    expect((await authenticate(sim, state)).body.install_state).toBe('NoInstallationId');
    // Same reference on other hardware (no IMEI in common): NewInstall again.
    state.imeis = ['356938035643809'];
    state.installation_id = 'moved';
    expect((await authenticate(sim, state)).body.install_state).toBe('NewInstall');
  });

  it('re-activates a deactivated device on authentication and clears the legacy flag', async () => {
    const { state } = await enrol(sim, { name: 'comeback', client: 'demo', phoneNumbers: [userNumber] });
    const { id_token } = await signIn('admin@demo.test');
    const deleted = await api(`/api/v1/demo/devices/${state.device_reference}`, { method: 'DELETE', headers: bearer(id_token) });
    expect(deleted.status).toBe(200);
    const off = await adminDevice(state.device_reference);
    expect(off).toMatchObject({ is_deactivated: true });
    // The old token is refused while deactivated (the simulator would re-authenticate on its own: not here).
    const strict = { ...sim, reauthenticate: false };
    expect((await fetchKek(strict, state)).result.status).toBe(401);

    // A migration marks it legacy meanwhile; the phone comes back.
    await deps.table.update(keys.device.key('demo', state.device_reference), { set: { is_legacy: true } });
    expect((await authenticate(sim, state)).body.install_state).toBe('NoChange');
    const on = await adminDevice(state.device_reference);
    expect(on).toMatchObject({ is_deactivated: false, is_legacy: false });
    expect(on.deactivation_date).toBeUndefined();
    expect(String(on.activated_at) > String(off.activated_at)).toBe(true);
    expect((await fetchKek(strict, state)).result.status).toBe(200);
  });

  it('uploads telemetry, a GPS trail and logs (or reports an endpoint not built yet as 501)', async () => {
    const { state } = await enrol(sim, { name: 'reporter', client: 'demo', phoneNumbers: [userNumber] });
    for (const result of [await sendTelemetry(sim, state), await sendGps(sim, state, 12), await sendLogs(sim, state, 3)]) {
      expect(result.ok || result.notImplemented).toBe(true);
    }
  });

  it('records through the payload pipeline: a Call ends processed (duration kept), an --eicar one failed and Quarantined', async () => {
    const { state } = await enrol(sim, { name: 'recorder', client: 'demo', phoneNumbers: [userNumber] });
    const [call] = await record(sim, state, 'Call', { at: new Date('2024-03-01T09:00:00Z') });
    expect(call).toMatchObject({ payload_type: 'Call', state: 'processed' });
    const item = await deps.table.get(keys.payload.key('demo', String(call?.payload_reference)));
    expect(item).toMatchObject({ payload_state: 'Processed', device_reference: state.device_reference, payload_duration: wavSeconds(demoMedia('call.wav')), second_party_numbers: '+447700900555' });

    const [infected] = await record(sim, state, 'Call', { eicar: true });
    expect(infected).toMatchObject({ payload_type: 'Call', state: 'failed' });
    expect((await deps.table.get(keys.payload.key('demo', String(infected?.payload_reference))))?.payload_state).toBe('Quarantined');
  }, 60_000);

  it('refuses a reference sealed with another key as the server would (401), not a crash', async () => {
    const wrong: Simulator = { ...sim, enrolmentKey: () => Buffer.alloc(32, 7) };
    const { result } = await enrol(wrong, { name: 'forger', client: 'demo', phoneNumbers: [userNumber] });
    expect(result.status).toBe(401);
    expect(result.body.message).toBe('Device credentials are invalid');
  });

  it('runs as the CLI: enrol and authenticate keep the phone in its state file', async () => {
    writeMdmConfig(directory, 'demo', (await deviceKeysOf(deps, 'demo')).enrolmentKey);
    const run = (...args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'scripts/device/cli.ts', ...args, '--url', stack().apiUrl, '--dir', directory, '--device', 'cli']);
    const enrolled = await run('enrol', '--client', 'demo', '--phone', userNumber, '--installation-id', 'cli-1');
    expect(enrolled.stdout).toContain('"install_state":"NewInstall"');
    expect(enrolled.stdout).not.toMatch(/dt1\.[A-Za-z0-9_-]{20,}/);
    const again = await run('authenticate');
    expect(again.stdout).toContain('"install_state":"NoChange"');
    expect(loadDevice(directory, 'cli')).toMatchObject({ client: 'demo', installation_id: 'cli-1', last_install_state: 'NoChange' });
    await expect(run('fly')).rejects.toMatchObject({ code: 1 });
  }, 60_000);

  it('sends one SMS with a given text from the CLI (what a lexicon policy reads), processed, and reports it in the ledger; refuses a text on a call', async () => {
    writeMdmConfig(directory, 'demo', (await deviceKeysOf(deps, 'demo')).enrolmentKey);
    const { state } = await enrol(sim, { name: 'texter', client: 'demo', phoneNumbers: [userNumber] });
    saveDevice(directory, state);
    const run = (...args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'scripts/device/cli.ts', ...args, '--url', stack().apiUrl, '--dir', directory, '--device', 'texter']);
    const sent = await run('record', '--type', 'SMS', '--text', 'Off the record, I guarantee it');
    const lines = sent.stdout.trim().split('\n');
    // The upload, then the phone's ledger reported with that message in it (docs/completeness.md).
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('ledger: 200 {"accepted":1,"already_recorded":0}');
    expect(lines[2]).toMatch(/^ledger: 1 entries reported, 0 left, covered to \d{4}-\d\d-\d\dT/);
    const reference = /^record SMS (\S+): processed$/.exec(lines[0] ?? '')?.[1];
    expect(reference, sent.stdout).toBeDefined();
    expect(await deps.table.get(keys.payload.key('demo', String(reference)))).toMatchObject({ payload_type: 'SMS', payload_state: 'Processed', device_reference: state.device_reference });
    await expect(run('record', '--type', 'Call', '--text', 'guarantee')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--text needs --type SMS') });
  }, 120_000);

  it('makes capture gaps from the CLI: a dropped call only in the ledger, a late one held back until upload-held', async () => {
    writeMdmConfig(directory, 'demo', (await deviceKeysOf(deps, 'demo')).enrolmentKey);
    const { state } = await enrol(sim, { name: 'gapper', client: 'demo', phoneNumbers: [userNumber] });
    saveDevice(directory, state);
    const run = (...args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'scripts/device/cli.ts', ...args, '--url', stack().apiUrl, '--dir', directory, '--device', 'gapper']);
    const ledgerEntry = async (entryId: string) => deps.table.get(keys.ledgerEntry.key('demo', state.device_reference, entryId), { consistent: true });

    const dropped = await run('record', '--type', 'Call', '--drop', '--hours-ago', '1');
    expect(dropped.stdout.split('\n')[0]).toBe('record Call : dropped');
    expect(dropped.stdout).toContain('ledger: 1 entries reported, 0 left');
    expect(await ledgerEntry('call-1')).toMatchObject({ outcome: 'Pending', payload_type: 'Call', direction: 'O' });

    const held = await run('record', '--type', 'Call', '--late', '--direction', 'I', '--no-ledger');
    expect(held.stdout.trim()).toBe('record Call : held');
    expect(loadDevice(directory, 'gapper')).toMatchObject({ ledger: [expect.objectContaining({ entry_id: 'call-2', direction: 'I' })], held: [expect.objectContaining({ type: 'Call', direction: 'I' })] });
    const uploaded = await run('upload-held');
    expect(uploaded.stdout).toMatch(/^record Call \S+: processed$/m);
    expect(uploaded.stdout).toContain('ledger: 1 entries reported, 0 left');
    expect(loadDevice(directory, 'gapper')).toMatchObject({ ledger: [], held: [] });
    expect(await ledgerEntry('call-2')).toMatchObject({ outcome: 'Captured', direction: 'I', payload_reference: expect.any(String) });
    await expect(run('record', '--type', 'Photo', '--short', '20')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('needs --type Call, AbortedCall, SMS') });
  }, 180_000);
});
