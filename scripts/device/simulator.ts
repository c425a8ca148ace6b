import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import type { DeviceCommand } from '#shared/contract/entities/devices.ts';
import type { DeviceAuthRequest, DeviceAuthResponse } from '#shared/contract/entities/device-auth.ts';
import type { DeviceLogEntry } from '#shared/contract/entities/logs.ts';
import type { GpsFix } from '#shared/contract/entities/gps.ts';
import type { TelemetryMeta } from '#shared/contract/entities/telemetry.ts';
import type { AlertSeverity } from '#shared/constants/alerts.ts';
import { sealUpload, type UploadKind } from '../../lambdas/device-crypto/envelope.ts';
import { openKek, sealReference } from './device-crypto.ts';
import type { DeviceState } from './device-state.ts';

/**
 * A simulated managed phone: every call is plain `fetch` against the HTTP API under `/device/v1`, with the bodies of
 * the contract (`shared/contract/endpoints/device-api.ts`). An endpoint that is not built yet (501) is answered as
 * `notImplemented`, never thrown, so the simulator works while the device API grows.
 */
export interface Simulator {
  baseUrl: string;
  /** The tenant's enrolment key, as the MDM configuration gives it to the app. */
  enrolmentKey(client: string): Buffer | Promise<Buffer>;
  /** Re-authenticate once and retry when a call is refused with 401 (what the app does). Default true. */
  reauthenticate?: boolean;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  ok: boolean;
  /** The endpoint answered 501: not built yet. */
  notImplemented: boolean;
  body: T & { message?: string };
}

/** One call of the device API: the method, the path under /device/v1, its JSON body and the bearer token, if any. */
export interface DeviceRequest {
  method: string;
  path: string;
  body?: unknown;
  token?: string | undefined;
}

async function call<T>(sim: Simulator, { method, path, body, token }: DeviceRequest): Promise<CallResult<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${sim.baseUrl}/device/v1${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = { message: text.slice(0, 500) };
  }
  return { status: response.status, ok: response.ok, notImplemented: response.status === 501, body: parsed as CallResult<T>['body'] };
}

/** A fresh 15-digit IMEI with a valid Luhn check digit (as real ones have). */
export function randomImei(): string {
  const digits = Array.from({ length: 14 }, (_, index) => (index === 0 ? 3 : Math.floor(Math.random() * 10)));
  const sum = digits.reduce((total, digit, index) => {
    if (index % 2 === 0) return total + digit;
    const doubled = digit * 2;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${digits.join('')}${(10 - (sum % 10)) % 10}`;
}

export interface EnrolOptions {
  name: string;
  client: string;
  phoneNumbers: string[];
  imeis?: string[];
  /** A string: that id; false: the app sends none (NoInstallationId); unset: a new random one. */
  installationId?: string | false;
  model?: string;
  osVersion?: string;
  appVersion?: string;
  position?: { latitude: number; longitude: number };
}

/**
 * A phone fresh from the box with the app installed: generates its device reference (a ULID) and seals it with the
 * tenant's enrolment key. No network yet: `authenticate` is the first call.
 */
export async function newDevice(sim: Simulator, options: EnrolOptions): Promise<DeviceState> {
  const reference = ulid();
  const enrolmentKey = await sim.enrolmentKey(options.client);
  return {
    name: options.name,
    client: options.client,
    device_reference: reference,
    ulid_encrypted: sealReference(enrolmentKey, options.client, reference),
    phone_numbers: options.phoneNumbers,
    imeis: options.imeis ?? [randomImei()],
    ...(options.installationId === false ? {} : { installation_id: options.installationId ?? randomUUID() }),
    model: options.model ?? 'Galaxy XCover7',
    os_version: options.osVersion ?? '14',
    app_version: options.appVersion ?? '5.2.0',
    serial_number: `R5C${reference.slice(-8)}`,
    position: options.position ?? { latitude: 51.5074, longitude: -0.1278 },
  };
}

/** `POST /authenticate`: keeps the token and the install_state the server computed. */
export async function authenticate(sim: Simulator, state: DeviceState): Promise<CallResult<DeviceAuthResponse>> {
  const body: DeviceAuthRequest = {
    ulid_encrypted: state.ulid_encrypted,
    phone_numbers: state.phone_numbers,
    imeis: state.imeis,
    ...(state.installation_id === undefined ? {} : { installation_id: state.installation_id }),
    model: state.model,
    os_version: state.os_version,
    app_version: state.app_version,
    serial_number: state.serial_number,
  };
  const result = await call<DeviceAuthResponse>(sim, { method: 'POST', path: '/authenticate', body });
  if (result.ok) {
    state.access_token = result.body.access_token;
    state.token_expires_at = Date.now() + (result.body.expires_in ?? 3600) * 1000;
    state.last_install_state = result.body.install_state;
  }
  return result;
}

/** Enrolment: a new phone authenticates for the first time (NewInstall). */
export async function enrol(sim: Simulator, options: EnrolOptions): Promise<{ state: DeviceState; result: CallResult<DeviceAuthResponse> }> {
  const state = await newDevice(sim, options);
  return { state, result: await authenticate(sim, state) };
}

/** A call with the device token: authenticates first when there is none (or it expired), and once more on a 401. */
export async function deviceCall<T>(sim: Simulator, state: DeviceState, request: Omit<DeviceRequest, 'token'>): Promise<CallResult<T>> {
  if (state.access_token === undefined || (state.token_expires_at ?? 0) < Date.now() + 30_000) {
    const auth = await authenticate(sim, state);
    if (!auth.ok) return auth as unknown as CallResult<T>;
  }
  const first = await call<T>(sim, { ...request, token: state.access_token });
  if (first.status !== 401 || sim.reauthenticate === false) return first;
  const auth = await authenticate(sim, state);
  if (!auth.ok) return first;
  return call<T>(sim, { ...request, token: state.access_token });
}

/** `GET /keys`, opened with the enrolment key: the KEK the phone wraps payload keys with. */
export async function fetchKek(sim: Simulator, state: DeviceState): Promise<{ result: CallResult<{ key_id: string; kek: string }>; kek?: Buffer }> {
  const result = await deviceCall<{ key_id: string; kek: string }>(sim, state, { method: 'GET', path: '/keys' });
  if (!result.ok) return { result };
  const kek = openKek(await sim.enrolmentKey(state.client), state.client, result.body.key_id, result.body.kek);
  return { result, kek };
}

/** Fetches the KEK, seals `meta` for `kind` as the app does, and posts it to `/<kind>`. */
export async function sealedUpload<T>(sim: Simulator, state: DeviceState, kind: UploadKind, meta: unknown): Promise<CallResult<T>> {
  const keys = await fetchKek(sim, state);
  if (keys.kek === undefined) return keys.result as unknown as CallResult<T>;
  return deviceCall<T>(sim, state, { method: 'POST', path: `/${kind}`, body: sealUpload({ kek: keys.kek, client: state.client, keyId: keys.result.body.key_id }, kind, meta) });
}

/** A plausible telemetry snapshot (battery drains, storage fills a little). */
export function sampleTelemetry(state: DeviceState, now = new Date()): TelemetryMeta {
  const battery = 20 + (Number.parseInt(state.device_reference.slice(-2), 36) % 80);
  return {
    collected_at: now.toISOString(),
    health: {
      battery_level: battery,
      is_charging: battery < 30,
      storage_total_bytes: 128 * 1024 ** 3,
      storage_free_bytes: 64 * 1024 ** 3 - battery * 1024 ** 2,
      wifi_enabled: true,
      wifi_connected: battery % 2 === 0,
      sim_state: 'READY',
      knox_enabled: true,
      knox_version: '3.10',
      permissions: { RECORD_AUDIO: true, READ_SMS: true, ACCESS_FINE_LOCATION: true },
    },
    applications: [
      { package_name: 'com.verity.recorder', simple_name: 'Verity', is_system_app: false, network_stats: { rx_bytes: 1_200_000, tx_bytes: 8_400_000 } },
      { package_name: 'com.android.dialer', simple_name: 'Phone', is_system_app: true },
    ],
    telecom: {
      network_operator: '23415',
      network_operator_name: 'Vodafone UK',
      network_country: 'gb',
      network_country_code: 44,
      sim_operator: '23415',
      sim_operator_name: 'Vodafone UK',
      sim_country: 'gb',
      default_dialer: 'com.android.dialer',
      default_sms_app: 'com.google.android.apps.messaging',
      signal_strength: -85,
    },
  };
}

export async function sendTelemetry(sim: Simulator, state: DeviceState, meta: TelemetryMeta = sampleTelemetry(state)): Promise<CallResult> {
  return sealedUpload(sim, state, 'telemetry', meta);
}

/** `points` fixes walking from the phone's position, one a minute ending now; the phone ends where the trail ends. */
export function gpsTrail(state: DeviceState, points: number, now = new Date()): GpsFix[] {
  const fixes: GpsFix[] = [];
  let { latitude, longitude } = state.position;
  for (let index = 0; index < points; index += 1) {
    latitude += 0.0004 * Math.cos(index / 5);
    longitude += 0.0006 * Math.sin(index / 7 + 1);
    fixes.push({
      latitude: Number(latitude.toFixed(6)),
      longitude: Number(longitude.toFixed(6)),
      accuracy: 5 + (index % 7),
      altitude: 20 + (index % 3),
      timestamp: new Date(now.getTime() - (points - 1 - index) * 60_000).toISOString(),
      timezone: 'Europe/London',
      provider: 'fused',
    });
  }
  state.position = { latitude, longitude };
  return fixes;
}

/** `POST /gps` with a sealed trail: the meta is the array of fixes (`GpsUploadMeta`, 1 to 1000). */
export async function sendGps(sim: Simulator, state: DeviceState, points: number): Promise<CallResult<{ accepted?: number }>> {
  return sealedUpload(sim, state, 'gps', gpsTrail(state, points));
}

const LOG_LINES: ReadonlyArray<Pick<DeviceLogEntry, 'log_level' | 'log_class' | 'log_message'>> = [
  { log_level: 'INFO', log_class: 'RecorderService', log_message: 'Call recording started' },
  { log_level: 'INFO', log_class: 'UploadWorker', log_message: 'Payload uploaded' },
  { log_level: 'DEBUG', log_class: 'SyncManager', log_message: 'Sync window opened' },
  { log_level: 'WARN', log_class: 'UploadWorker', log_message: 'Upload retried after network change' },
  { log_level: 'ERROR', log_class: 'SmsObserver', log_message: 'SMS content provider unavailable' },
];

export function sampleLogs(count: number, now = new Date()): DeviceLogEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    ...(LOG_LINES[index % LOG_LINES.length] as DeviceLogEntry),
    log_datetime: new Date(now.getTime() - (count - 1 - index) * 30_000).toISOString(),
    local_timezone: 'Europe/London',
  }));
}

export async function sendLogs(sim: Simulator, state: DeviceState, count = 5): Promise<CallResult<{ accepted?: number }>> {
  return deviceCall(sim, state, { method: 'POST', path: '/logs', body: { logs: sampleLogs(count) } });
}

export interface CommandRun {
  poll: CallResult<{ data?: DeviceCommand[] }>;
  answered: Array<{ command_reference: string; command: string; states: number[] }>;
}

/** Polls and answers every waiting command as the app does: Acknowledged, then Completed. */
export async function answerCommands(sim: Simulator, state: DeviceState): Promise<CommandRun> {
  const poll = await deviceCall<{ data?: DeviceCommand[] }>(sim, state, { method: 'GET', path: '/commands' });
  const answered: CommandRun['answered'] = [];
  if (!poll.ok) return { poll, answered };
  for (const command of poll.body.data ?? []) {
    const path = `/commands/${encodeURIComponent(command.command_reference)}`;
    const states: number[] = [];
    if (command.state === 'Sent') states.push((await deviceCall(sim, state, { method: 'PUT', path, body: { state: 'Acknowledged' } })).status);
    states.push((await deviceCall(sim, state, { method: 'PUT', path, body: { state: 'Completed', message: `${command.command} done by the simulator` } })).status);
    answered.push({ command_reference: command.command_reference, command: command.command, states });
  }
  return { poll, answered };
}

export async function raiseDeviceAlert(
  sim: Simulator,
  state: DeviceState,
  alert: { subject: string; message: string; severity: AlertSeverity },
): Promise<CallResult<{ alert_reference?: string }>> {
  return deviceCall(sim, state, { method: 'POST', path: '/alerts', body: alert });
}

/**
 * A factory reset: the phone's data is wiped, so the app starts with a new installation id and no token; the IMEI is
 * the same and the MDM pushes the same sealed reference again. The server answers FactoryReset.
 */
export async function factoryReset(sim: Simulator, state: DeviceState): Promise<CallResult<DeviceAuthResponse>> {
  state.installation_id = randomUUID();
  delete state.access_token;
  delete state.token_expires_at;
  return authenticate(sim, state);
}

/**
 * The app removed and installed again (optionally a new version): a new installation id, same hardware and reference.
 * The server cannot tell it from a wipe and answers FactoryReset too (docs/device-protocol.md).
 */
export async function reinstall(sim: Simulator, state: DeviceState, appVersion?: string): Promise<CallResult<DeviceAuthResponse>> {
  if (appVersion !== undefined) state.app_version = appVersion;
  return factoryReset(sim, state);
}
