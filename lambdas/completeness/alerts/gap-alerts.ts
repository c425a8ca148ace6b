import type { LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { Direction } from '#shared/constants/payloads.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import { readDevice, type DeviceItem } from '#core/store/entities/device.ts';
import { keys } from '#core/store/keys.ts';
import { raiseAlert, relatedEntity } from '../../alerts/public.ts';

type AlertDeps = Pick<Dependencies, 'table' | 'clock'>;
type RaiseAlertResult = Awaited<ReturnType<typeof raiseAlert>>;

/** What a gap alert says of the entry that has no (whole) recording: the ledger entry's own facts. */
export interface GapEntry {
  entry_id: string;
  payload_type: LedgerPayloadType;
  direction: Direction;
  start_time: string;
  phone_number?: string | undefined;
  /** The call's length by the phone's call log, seconds (calls only). */
  duration?: number | undefined;
  /** The recording's length, seconds, when a Short entry has one. */
  recording_duration?: number | undefined;
  is_intermittent?: boolean | undefined;
  device_user_reference?: string | undefined;
}

export interface GapAlertInput {
  deviceReference: string;
  /** The entry's UTC day (YYYY-MM-DD): the day it counts on. */
  day: string;
  outcome: 'Missing' | 'Short';
  entry: GapEntry;
}

/** The Scoped key of a device's gap alert for one day: every gap that day is an occurrence of the same open alert. */
export const gapAlertKey = (deviceReference: string, day: string) => `completeness:${deviceReference}:${day}`;
/** The Scoped key of a device's silent alert: one open alert while it stays silent, whatever the day. */
export const silentAlertKey = (deviceReference: string) => `silent:${deviceReference}`;

const DIRECTION_WORDS: Record<Direction, string> = { I: 'incoming', O: 'outgoing', CC: 'conference' };

/** The device as a compliance officer knows it: its model and number, else its reference. */
export function deviceName(deviceReference: string, device: DeviceItem | undefined): string {
  const model = device?.model;
  const number = device?.phone_numbers[0]?.phone_number ?? device?.legacy_phone_number;
  if (model !== undefined && number !== undefined) return `${model} (${number})`;
  if (model !== undefined) return `${model} (${deviceReference})`;
  if (number !== undefined) return `device ${number}`;
  return `device ${deviceReference}`;
}

/** Who held the device, by name, as the device item keeps its holder's name. */
function holderName(device: DeviceItem | undefined): string | undefined {
  const name = [device?.first_name, device?.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? undefined : name;
}

/** Minutes and seconds, as a person reads a call's length. */
export function lengthInWords(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** `14:02 UTC` of an ISO instant (the day is said once, in the lead). */
const timeOfDay = (iso: string) => `${new Date(iso).toISOString().slice(11, 16)} UTC`;

/** What the entry was, in words with its article: "an outgoing call with +44 7700 900456 at 14:02 UTC, 3 min 20 s". */
function entryInWords(entry: GapEntry): string {
  const kind = entry.payload_type === 'Call' ? 'call' : entry.payload_type;
  const party = entry.phone_number === undefined ? '' : ` with ${entry.phone_number}`;
  const length = entry.payload_type === 'Call' && entry.duration !== undefined ? `, ${lengthInWords(entry.duration)}` : '';
  const direction = DIRECTION_WORDS[entry.direction];
  const article = direction === 'conference' ? 'a' : 'an';
  return `${article} ${direction} ${kind}${party} at ${timeOfDay(entry.start_time)}${length}`;
}

/** Why a Short entry is short: the recording's length against the call's, or its interruptions. */
function shortReason(entry: GapEntry): string {
  const recorded = entry.recording_duration === undefined ? undefined : lengthInWords(entry.recording_duration);
  if (entry.is_intermittent === true) return recorded === undefined ? 'the recording is intermittent' : `the recording is intermittent (${recorded} recorded)`;
  return recorded === undefined ? 'the recording is shorter than the call' : `only ${recorded} of it is recorded`;
}

async function deviceOf(deps: AlertDeps, client: string, deviceReference: string): Promise<DeviceItem | undefined> {
  const item = await deps.table.get(keys.device.key(client, deviceReference));
  return item === undefined ? undefined : readDevice(item);
}

function relatedOf(client: string, deviceReference: string, deviceUserReference: string | undefined) {
  return [
    relatedEntity(client, 'Device', deviceReference),
    ...(deviceUserReference === undefined ? [] : [relatedEntity(client, 'DeviceUser', deviceUserReference)]),
  ];
}

/**
 * Raises the gap alert of a `Missing` or `Short` ledger entry: a Scoped DeviceAlert per device and UTC day, so the
 * first gap of the day opens it and every further gap that day appends an occurrence (the alert's occurrence count
 * is the day's gaps; its latest message names the latest one). Severity High: a call or message the phone saw that
 * Verity does not hold (whole) is the record a regulator asks for (MiFID II Delegated Regulation Art 76).
 * Not best-effort: a failure propagates, so the caller's run fails and is retried rather than losing the alert.
 */
export async function raiseGapAlert(deps: AlertDeps, client: string, input: GapAlertInput): Promise<RaiseAlertResult> {
  const { deviceReference, day, outcome, entry } = input;
  const device = await deviceOf(deps, client, deviceReference);
  const name = deviceName(deviceReference, device);
  const holder = holderName(device);
  const heldBy = holder === undefined ? '' : ` held by ${holder}`;
  const what = entry.payload_type === 'Call' ? 'Call' : entry.payload_type;
  const message =
    outcome === 'Missing'
      ? `${what} missing on ${day} from ${name}${heldBy}: the phone logged ${entryInWords(entry)} and Verity holds no recording of it`
      : `${what} recorded short on ${day} from ${name}${heldBy}: the phone logged ${entryInWords(entry)} and ${shortReason(entry)}`;
  return raiseAlert(deps, client, {
    scope: 'ops',
    type: 'DeviceAlert',
    subject: `Capture gaps on ${day} from ${name}`,
    key: gapAlertKey(deviceReference, day),
    keyType: 'Scoped',
    message,
    severity: 'High',
    relatedEntities: relatedOf(client, deviceReference, entry.device_user_reference ?? device?.device_user_reference),
    apiAction: 'completeness:ListEntries',
  });
}

export interface SilentDeviceInput {
  deviceReference: string;
  /** The latest ledger report and telemetry the device sent (either may be absent, not both). */
  lastLedgerAt?: string | undefined;
  lastTelemetryAt?: string | undefined;
  /** The account's silent_device_hours the device went past. */
  silentHours: number;
}

/** The latest of two optional ISO instants. */
const latestOf = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);

/**
 * Whether this silence was alerted already: the key's pointer names the latest alert raised for it (Triggered or
 * since cleared), and that alert began after the device was last heard from. A person who cleared it while the device
 * stays silent is not told again; a device heard from and silent again is.
 */
async function alertedSince(deps: AlertDeps, client: string, key: string, heardAt: string): Promise<boolean> {
  const pointer = await deps.table.get(keys.alert.scopedKey(client, 'ops', key), { consistent: true });
  if (pointer === undefined) return false;
  const alert = await deps.table.get(keys.alert.key(client, readAlertKey(pointer).alert_reference), { consistent: true });
  return alert !== undefined && readAlert(alert).first_occurrence > heardAt;
}

/**
 * Raises the silent alert of an activated device that has sent neither a ledger report nor telemetry for the
 * account's silent hours: Scoped per device (`silent:<device>`), and once per silence: while it stays silent, later
 * sweeps raise nothing more (undefined), so the alert says when the silence began rather than counting sweeps.
 */
export async function raiseSilentDeviceAlert(deps: AlertDeps, client: string, input: SilentDeviceInput): Promise<RaiseAlertResult | undefined> {
  const { deviceReference, lastLedgerAt, lastTelemetryAt, silentHours } = input;
  const heardAt = latestOf(lastLedgerAt, lastTelemetryAt);
  if (heardAt === undefined) return undefined;
  if (await alertedSince(deps, client, silentAlertKey(deviceReference), heardAt)) return undefined;
  const device = await deviceOf(deps, client, deviceReference);
  const name = deviceName(deviceReference, device);
  const holder = holderName(device);
  const heard = [
    lastLedgerAt === undefined ? 'no ledger report' : `its last ledger report at ${lastLedgerAt}`,
    lastTelemetryAt === undefined ? 'no telemetry' : `its last telemetry at ${lastTelemetryAt}`,
  ].join(' and ');
  return raiseAlert(deps, client, {
    scope: 'ops',
    type: 'DeviceAlert',
    subject: `Device silent: ${name}`,
    key: silentAlertKey(deviceReference),
    keyType: 'Scoped',
    message: `${name}${holder === undefined ? '' : ` held by ${holder}`} has sent nothing for more than ${silentHours} hour${silentHours === 1 ? '' : 's'} (${heard}): calls and messages on it may not be recorded`,
    severity: 'Medium',
    relatedEntities: relatedOf(client, deviceReference, device?.device_user_reference),
    apiAction: 'device:UploadLedger',
  });
}
