import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { deviceKeysOf } from '../../../lambdas/device-crypto/device-keys.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { dashboardCounterOperations, deviceCounterChanges, deviceUserCounterChanges } from '../../../lambdas/metrics/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';
import { licenceUseChanges, licenceUseOperations } from '../../../lambdas/licences/licence-usage.ts';
import type { Service } from '#shared/constants/devices.ts';
import { ulid } from 'ulid';
import { writeMdmConfig } from '../../device/mdm-config.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import {
  answerCommands,
  authenticate,
  enrol,
  randomImei,
  sendGps,
  sendLogs,
  sendTelemetry,
  type CallResult,
  type Simulator,
} from '../../device/simulator.ts';
import { loadDevice, saveDevice, type DeviceState } from '../../device/device-state.ts';
import { record, type RecordOptions, type RecordResult, type RecordType } from '../../device/recorder.ts';
import { DEMO_TENANTS, STAFF_CLIENT } from './accounts.ts';
import { seedDemoAccess, type UserPlacement } from './groups.ts';

/**
 * The demo fleet of tenant `demo`, seeded once (marker item) after the stack is up, by the device simulator through
 * the real HTTP API: device users, phones activated (with telemetry, a GPS trail and logs), one pending (never
 * authenticated), one deactivated by the admin (DELETE through the API), legacy ones (as a migration leaves them)
 * and one unassigned; then each user's phone records media through the payload pipeline (`seedDemoMedia`). The
 * simulated phones are saved under `<devicesDir>` so `npm run device -- … --device <name>`
 * can carry on with any of them.
 */
export const FLEET_VERSION = 'v1';
const CLIENT = 'demo';

interface FleetUser {
  reference: string;
  /** One of the demo groups of groups.ts, set through the API once the groups exist. */
  group: string;
  first_name: string;
  surname: string;
  phone: string;
  services: string[];
  position: { latitude: number; longitude: number };
}

const USERS: readonly FleetUser[] = [
  { reference: 'du-alice', group: 'london-equities', first_name: 'Alice', surname: 'Archer', phone: '07700900101', services: ['calls', 'sms', 'gps'], position: { latitude: 51.5155, longitude: -0.0922 } },
  { reference: 'du-bram', group: 'london-equities', first_name: 'Bram', surname: 'Baker', phone: '07700900102', services: ['calls', 'sms'], position: { latitude: 51.5033, longitude: -0.1196 } },
  { reference: 'du-chloe', group: 'manchester-fx', first_name: 'Chloe', surname: 'Carter', phone: '07700900103', services: ['calls', 'gps', 'photos'], position: { latitude: 53.4808, longitude: -2.2426 } },
  { reference: 'du-dev', group: 'compliance', first_name: 'Dev', surname: 'Dhillon', phone: '07700900104', services: ['calls'], position: { latitude: 52.4862, longitude: -1.8904 } },
  { reference: 'du-erin', group: 'edinburgh-fixed-income', first_name: 'Erin', surname: 'Evans', phone: '07700900105', services: ['sms', 'mms'], position: { latitude: 55.9533, longitude: -3.1883 } },
];

const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_FLEET_${FLEET_VERSION}`);
/** A separate marker for the recorded media, so a data directory seeded before the media existed gets them too. */
export const MEDIA_VERSION = 'v2';
const mediaMarkerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_MEDIA_${MEDIA_VERSION}`);

/** Where each fleet user belongs (the demo groups of groups.ts). */
export function fleetPlacements(): UserPlacement[] {
  return USERS.map((user) => ({ client: CLIENT, device_user_reference: user.reference, group: user.group }));
}

/** Every start: the MDM configuration of each demo tenant, for the simulator CLI (see scripts/device/mdm-config.ts). */
export async function writeMdmConfigs(deps: Pick<Dependencies, 'table' | 'keys'>, devicesDir: string): Promise<void> {
  for (const client of DEMO_TENANTS) writeMdmConfig(devicesDir, client, (await deviceKeysOf(deps, client)).enrolmentKey);
}

/** A device user written as onboarding writes one (contract fields, dashboard counters, licence use) plus its phone number index. */
async function putDeviceUser(deps: Dependencies, user: FleetUser, now: string): Promise<void> {
  const item = {
    ...keys.deviceUser.item(CLIENT, user.reference),
    client: CLIENT,
    device_user_reference: user.reference,
    services: user.services,
    expected_device_count: 1,
    email: `${user.first_name.toLowerCase()}@demo.test`,
    first_name: user.first_name,
    surname: user.surname,
    is_active: true,
    is_legacy: false,
    onboard_date: now,
    updated_at: now,
    updated_by: 'seed',
  };
  await deps.table.transactWrite([
    { kind: 'put', item, condition: { kind: 'item-not-exists' } },
    { kind: 'put', item: { ...keys.phoneNumber.item(CLIENT, user.phone), phone_number: user.phone, device_user_reference: user.reference } },
    ...dashboardCounterOperations(CLIENT, deviceUserCounterChanges(undefined, { is_active: true })),
    // Onboarded with services: each takes a licence, as an onboarding through the API does.
    ...licenceUseOperations(CLIENT, licenceUseChanges(undefined, { is_active: true, services: user.services as Service[] })),
  ]);
}

/** Devices no phone has called in for: pending (enrolled, never authenticated) and legacy (migrated). */
async function putDormantDevice(deps: Dependencies, fields: { is_legacy: boolean; is_deactivated: boolean; activated_at?: string }, now: string) {
  const reference = ulid();
  const device = {
    client: CLIENT,
    device_reference: reference,
    services: [],
    imeis: [randomImei()],
    model: 'Galaxy A54',
    os_version: '13',
    app_version: fields.is_legacy ? '3.9.7' : '5.2.0',
    ...fields,
    ...(fields.is_deactivated ? { deactivation_date: now } : {}),
    ...(fields.is_legacy ? { legacy_phone_number: '07700900199' } : {}),
    updated_at: now,
    updated_by: 'seed',
  };
  await deps.table.transactWrite([
    { kind: 'put', item: { ...keys.device.item(CLIENT, reference), ...device }, condition: { kind: 'item-not-exists' } },
    ...dashboardCounterOperations(CLIENT, deviceCounterChanges(undefined, device)),
  ]);
}

function must(label: string, result: CallResult<object>): void {
  // A device endpoint not built yet is skipped, not fatal: the fleet grows with the API.
  if (!result.ok && !result.notImplemented) throw new Error(`${label} answered ${result.status}: ${JSON.stringify(result.body)}`);
}

const phoneName = (user: FleetUser) => `demo-${user.first_name.toLowerCase()}`;

/** Records `type` on `phone` and checks every upload ended `expected` (the device view: processed or failed). */
async function recordExpecting(sim: Simulator, phone: DeviceState, { type, expected }: { type: RecordType; expected: RecordResult['state'] }, options: RecordOptions) {
  for (const result of await record(sim, phone, type, options)) {
    if (result.state !== expected) {
      const why = result.refused === undefined ? result.state : `${result.refused.status} ${JSON.stringify(result.refused.body)}`;
      throw new Error(`record ${type} on ${phone.name} ended ${why}, expected ${expected}`);
    }
  }
}

/**
 * The demo media, once (own marker), recorded by each fleet phone through the real payload pipeline (never written
 * to the table): a call and an interview (speech, WAV), a photo (JPEG with EXIF), a short video (MP4) and a message
 * thread of 3 SMS and an MMS (scripts/device/media/); the first phone also a blocked and an aborted call (nothing to
 * play), one EICAR upload (ends Quarantined) and one tampered upload (ends Failed), each with its PayloadAlert.
 * Recordings are spread over the last two days so lists and date filters have something to sort.
 */
async function seedDemoMedia(deps: Dependencies, sim: Simulator, devicesDir: string): Promise<boolean> {
  if ((await deps.table.get(mediaMarkerKey(), { consistent: true })) !== undefined) return false;
  const phones = USERS.map((user) => loadDevice(devicesDir, phoneName(user))).filter((phone): phone is DeviceState => phone !== undefined);
  const now = Date.now();
  await Promise.all(
    phones.map(async (phone, index) => {
      const hoursAgo = (hours: number) => new Date(now - (hours + index) * 3_600_000);
      const base = { seed: index, otherNumber: `+4477009002${String(index).padStart(2, '0')}` };
      try {
        await recordExpecting(sim, phone, { type: 'Call', expected: 'processed' }, { ...base, at: hoursAgo(30) });
        await recordExpecting(sim, phone, { type: 'Interview', expected: 'processed' }, { ...base, at: hoursAgo(26) });
        await recordExpecting(sim, phone, { type: 'Photo', expected: 'processed' }, { ...base, at: hoursAgo(20) });
        await recordExpecting(sim, phone, { type: 'Video', expected: 'processed' }, { ...base, at: hoursAgo(8) });
        await recordExpecting(sim, phone, { type: 'SMS', expected: 'processed' }, { ...base, at: hoursAgo(3) });
      } finally {
        saveDevice(devicesDir, phone);
      }
    }),
  );
  const [first] = phones;
  if (first !== undefined) {
    await recordExpecting(sim, first, { type: 'BlockedCall', expected: 'processed' }, { at: new Date(now - 5_400_000) });
    await recordExpecting(sim, first, { type: 'AbortedCall', expected: 'processed' }, { at: new Date(now - 4_800_000) });
    await recordExpecting(sim, first, { type: 'Interview', expected: 'failed' }, { eicar: true, at: new Date(now - 3_600_000) });
    await recordExpecting(sim, first, { type: 'Call', expected: 'failed' }, { tamper: true, at: new Date(now - 1_800_000) });
    saveDevice(devicesDir, first);
  }
  await deps.table.put({ ...mediaMarkerKey(), entity: 'LocalSeed', seeded_at: new Date(now).toISOString() });
  return true;
}

/**
 * Seeds the fleet once, then the demo tags and groups with each fleet user placed in one (groups.ts) once, then
 * its recorded media once; answers whether it seeded anything. `stack` is the running local stack (its URL and environment).
 */
export async function seedDemoFleet(stack: { apiUrl: string; env: Record<string, string> }, devicesDir: string): Promise<boolean> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  await writeMdmConfigs(deps, devicesDir);
  const sim: Simulator = { baseUrl: stack.apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(deps, client)).enrolmentKey };
  const fleet = await seedFleet(deps, sim, stack.apiUrl, devicesDir);
  // Before the media (the slow part), so the portal's Groups, Tags and Device users screens fill early.
  const access = await seedDemoAccess(deps, stack.apiUrl, fleetPlacements());
  if (access) await signInAgain(sim, devicesDir);
  const media = await seedDemoMedia(deps, sim, devicesDir);
  return fleet || access || media;
}

/**
 * Each user's phone signs in once more, as a real phone does at least daily. The phones enrolled before their users
 * were placed in groups; signing in moves each into its user's group (the device follows its user at authentication),
 * so the group counts it in actual_devices and its recordings carry the group.
 */
async function signInAgain(sim: Simulator, devicesDir: string): Promise<void> {
  for (const user of USERS) {
    const phone = loadDevice(devicesDir, phoneName(user));
    if (phone === undefined) continue;
    must(`sign-in ${phone.name}`, await authenticate(sim, phone));
    saveDevice(devicesDir, phone);
  }
}

async function seedFleet(deps: Dependencies, sim: Simulator, apiUrl: string, devicesDir: string): Promise<boolean> {
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return false;
  const now = new Date().toISOString();

  for (const user of USERS) {
    try {
      await putDeviceUser(deps, user, now);
    } catch (error) {
      // Someone made this user through the portal first: keep theirs.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  const phones: DeviceState[] = [];
  // The active fleet: each user's phone authenticates (NewInstall), then reports in.
  await Promise.all(
    USERS.map(async (user, index) => {
      const { state, result } = await enrol(sim, {
        name: phoneName(user),
        client: CLIENT,
        phoneNumbers: [user.phone],
        position: user.position,
        appVersion: index % 2 === 0 ? '5.2.0' : '5.1.3',
        osVersion: index % 3 === 0 ? '14' : '13',
      });
      must(`enrol ${state.name}`, result);
      must(`telemetry ${state.name}`, await sendTelemetry(sim, state));
      must(`logs ${state.name}`, await sendLogs(sim, state, 8));
      if (user.services.includes('gps')) must(`gps ${state.name}`, await sendGps(sim, state, 30));
      must(`commands ${state.name}`, (await answerCommands(sim, state)).poll);
      phones.push(state);
    }),
  );

  // A phone nobody claimed (its number names no device user): authenticated, unassigned, no services.
  const spare = await enrol(sim, { name: 'demo-spare', client: CLIENT, phoneNumbers: ['07700900999'] });
  must('enrol demo-spare', spare.result);
  phones.push(spare.state);

  // A phone the admin took out of service: enrolled, then DELETE through the admin API as admin@demo.test.
  const retired = await enrol(sim, { name: 'demo-retired', client: CLIENT, phoneNumbers: ['07700900998'] });
  must('enrol demo-retired', retired.result);
  phones.push(retired.state);
  const adminToken = await signInDemoAccount(apiUrl, 'admin@demo.test');
  const deleted = await fetch(`${apiUrl}/api/v1/${CLIENT}/devices/${retired.state.device_reference}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (!deleted.ok) throw new Error(`DELETE device answered ${deleted.status}`);

  await putDormantDevice(deps, { is_legacy: false, is_deactivated: false }, now);
  await putDormantDevice(deps, { is_legacy: true, is_deactivated: false, activated_at: now }, now);
  await putDormantDevice(deps, { is_legacy: true, is_deactivated: true, activated_at: now }, now);

  for (const phone of phones) saveDevice(devicesDir, phone);
  await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: now });
  return true;
}
