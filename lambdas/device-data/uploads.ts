import { ulid } from 'ulid';
import * as z from 'zod';
import type { SealedUpload } from '#shared/contract/entities/device-auth.ts';
import { GpsFix } from '#shared/contract/entities/gps.ts';
import type { DeviceLogUpload } from '#shared/contract/entities/logs.ts';
import { TelemetryMeta } from '#shared/contract/entities/telemetry.ts';
import { DateTimeIso } from '#shared/contract/fields.ts';
import { formatIssues, itemsAtLeast } from '#shared/contract/messages.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { UnauthorizedError, ValidationError } from '../core/errors.ts';
import { recordCarrierSeen } from '../metrics/public.ts';
import { ConditionFailedError, type TableItem, type TransactOperation } from '../core/ports/table-store.ts';
import { readDevice, deviceLastSeenToItem } from '../core/store/entities/device.ts';
import { deviceLogToItem, type DeviceLogItem } from '../core/store/entities/device-log.ts';
import { gpsToItem, type GpsItem } from '../core/store/entities/gps.ts';
import { dueMarkerItems } from '../account-data/public.ts';
import { telemetryToItems, type TelemetryItem } from '../core/store/entities/telemetry.ts';
import { keys } from '../core/store/keys.ts';
import { TABLE_KEYS } from '../core/store/table-definition.ts';
import { openUpload } from '../device-crypto/public.ts';

/** What the upload services use. */
export type UploadDependencies = Pick<Dependencies, 'table' | 'keys' | 'clock' | 'logger'>;

/** The calling device, as its verified token names it: tenant and device come from the token only. */
export interface UploadingDevice {
  client: string;
  deviceReference: string;
}

/** A GPS upload's sealed meta: the fixes, at least 1 (at most 1000, as for logs, to bound one request). */
export const GpsUploadMeta = z.array(GpsFix).min(1, { error: itemsAtLeast(1) }).max(1000);

/** A log line longer than this is refused (DynamoDB items stop at 400 KB; a line is one item). */
export const MAX_LOG_MESSAGE = 32 * 1024;
/** Nesting DynamoDB stores at most is 32 levels; loose telemetry objects are held well below it. */
const MAX_DEPTH = 12;
/** Items per transaction (DynamoDB's limit is 100). */
const WRITE_BATCH = 100;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?([+-]\d{2}:\d{2})$/;

/**
 * A device time as ISO UTC (what time-ordered keys need), or undefined when it is not a date and time. Decision: the
 * spec's DateTimeIso without `Z` is read as UTC (the device sends its zone apart, as `local_timezone`); an explicit
 * offset is honoured. Fractions beyond milliseconds are cut, so keys sort as text.
 */
export function utcOf(value: string): string | undefined {
  let candidate: string | undefined;
  if (DateTimeIso.safeParse(value).success) {
    const [whole, fraction = ''] = value.replace(' ', 'T').replace(/Z$/, '').split('.');
    candidate = `${whole}.${fraction.padEnd(3, '0').slice(0, 3)}Z`;
  } else if (ISO_WITH_OFFSET.test(value)) {
    candidate = value;
  }
  if (candidate === undefined) return undefined;
  const time = new Date(candidate);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1970 || time.getUTCFullYear() > 9999) return undefined;
  return time.toISOString();
}

function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit === 0) return 1;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner, limit - 1));
  return deepest + 1;
}

/** Parses opened plaintext with the contract schema; problems are 400 lines under `meta.` (the sealed content). */
export function parseSealed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (depthOf(value, MAX_DEPTH + 1) > MAX_DEPTH) throw new ValidationError([`meta: Must be nested at most ${MAX_DEPTH} levels`]);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(formatIssues(parsed.error, 'meta'));
  return parsed.data;
}

/**
 * Attributes the server sets (keys, tenant, device, holder, times): never taken from a device's loose telemetry, so
 * a report cannot place itself in another list or tenant, or claim another device user.
 */
const SERVER_ATTRIBUTES = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  TABLE_KEYS.entityAttribute,
  TABLE_KEYS.ttlAttribute,
  ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  'client',
  'device_reference',
  'device_user_reference',
  'group',
  'received_at',
  'collected_at',
]);

/** The device's own fields of a loose report, without any attribute the server sets. */
export function deviceFields(report: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(report).filter(([name]) => !SERVER_ATTRIBUTES.has(name)));
}

/** The device item, consistent (the pipeline verified the token; it still names who holds the device now). */
export async function holderOf(deps: UploadDependencies, device: UploadingDevice): Promise<{ deviceUserReference?: string; group?: string }> {
  const item = await deps.table.get(keys.device.key(device.client, device.deviceReference), { consistent: true });
  if (item === undefined) throw new UnauthorizedError('Device token required');
  const { device_user_reference: deviceUserReference, group } = readDevice(item);
  return { ...(deviceUserReference === undefined ? {} : { deviceUserReference }), ...(group === undefined ? {} : { group }) };
}

/**
 * `last_seen` on the device and its last-seen index item (what the inactivity job reads), in one transaction
 * conditional on the device existing, being active, and not being seen later already: an upload never creates a
 * device, and never puts back the index item a deactivation removed. A device changed meanwhile is left alone.
 */
export async function touchLastSeen(deps: UploadDependencies, device: UploadingDevice, now: string): Promise<void> {
  try {
    await deps.table.transactWrite([
      {
        kind: 'update',
        key: keys.device.key(device.client, device.deviceReference),
        update: { set: { last_seen: now } },
        condition: {
          kind: 'expression',
          expression: 'attribute_exists(#pk) AND (attribute_not_exists(#off) OR #off = :false) AND (attribute_not_exists(#seen) OR #seen < :now)',
          names: { '#pk': 'pk', '#off': 'is_deactivated', '#seen': 'last_seen' },
          values: { ':now': now, ':false': false },
        },
      },
      { kind: 'put', item: deviceLastSeenToItem(device.client, device.deviceReference, now) },
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

async function writeAll(deps: UploadDependencies, client: string, items: TableItem[]): Promise<void> {
  // Each record with its retention marker (lambdas/account-data/retention/due-index.ts): two puts, so half a batch.
  const perBatch = WRITE_BATCH / 2;
  for (let start = 0; start < items.length; start += perBatch) {
    const operations: TransactOperation[] = items
      .slice(start, start + perBatch)
      .flatMap((item) => [item, ...dueMarkerItems(client, item)])
      .map((item) => ({ kind: 'put', item }));
    // Each batch all or nothing; ids are fresh ULIDs, so a retried upload adds lines rather than overwriting any.
    await deps.table.transactWrite(operations);
  }
}

/** POST /device/v1/logs: each line one item in the device's, its user's, its group's and the tenant's log lists. */
export async function uploadLogs(deps: UploadDependencies, device: UploadingDevice, body: DeviceLogUpload): Promise<{ accepted: number }> {
  const problems: string[] = [];
  const times = body.logs.map((log, index) => {
    if (log.log_message.length > MAX_LOG_MESSAGE) problems.push(`body.logs.${index}.log_message: Must be at most ${MAX_LOG_MESSAGE} characters`);
    const time = utcOf(log.log_datetime);
    if (time === undefined) problems.push(`body.logs.${index}.log_datetime: Must be an ISO date like 1999-01-01T16:50:00Z`);
    return time ?? '';
  });
  if (problems.length > 0) throw new ValidationError(problems);
  const holder = await holderOf(deps, device);
  const now = deps.clock.now();
  const items = body.logs.map((log, index): TableItem => {
    const line: DeviceLogItem = {
      client: device.client,
      log_id: ulid(now.getTime()),
      device_reference: device.deviceReference,
      ...(holder.deviceUserReference === undefined ? {} : { device_user_reference: holder.deviceUserReference }),
      ...(holder.group === undefined ? {} : { group: holder.group }),
      ...(log.log_class === undefined ? {} : { log_class: log.log_class }),
      log_level: log.log_level,
      log_datetime: times[index] as string,
      ...(log.local_timezone === undefined ? {} : { local_timezone: log.local_timezone }),
      ...(log.payload_reference === undefined ? {} : { payload_reference: log.payload_reference }),
      log_message: log.log_message,
      received_at: now.toISOString(),
    };
    return deviceLogToItem(device.client, line);
  });
  await writeAll(deps, device.client, items);
  await touchLastSeen(deps, device, now.toISOString());
  return { accepted: items.length };
}

/** POST /device/v1/gps: opens the envelope, then each fix one item in the same four lists as logs. */
export async function uploadGps(deps: UploadDependencies, device: UploadingDevice, body: SealedUpload): Promise<{ accepted: number }> {
  const fixes = parseSealed(GpsUploadMeta, await openUpload(deps, device.client, 'gps', body));
  const problems: string[] = [];
  const times = fixes.map((fix, index) => {
    const time = utcOf(fix.timestamp);
    if (time === undefined) problems.push(`meta.${index}.timestamp: Must be an ISO date like 1999-01-01T16:50:00Z`);
    return time ?? '';
  });
  if (problems.length > 0) throw new ValidationError(problems);
  const holder = await holderOf(deps, device);
  const now = deps.clock.now();
  const items = fixes.map((fix, index): TableItem => {
    const stored: GpsItem = {
      client: device.client,
      gps_reference: ulid(now.getTime()),
      device_reference: device.deviceReference,
      ...(holder.deviceUserReference === undefined ? {} : { device_user_reference: holder.deviceUserReference }),
      ...(holder.group === undefined ? {} : { group: holder.group }),
      ...(fix.accuracy === undefined ? {} : { accuracy: fix.accuracy }),
      ...(fix.altitude === undefined ? {} : { altitude: fix.altitude }),
      latitude: fix.latitude,
      longitude: fix.longitude,
      timestamp: times[index] as string,
      ...(fix.timezone === undefined ? {} : { timezone: fix.timezone.slice(0, 64) }),
      ...(fix.provider === undefined ? {} : { provider: fix.provider.slice(0, 64) }),
      received_at: now.toISOString(),
    };
    return gpsToItem(device.client, stored);
  });
  await writeAll(deps, device.client, items);
  await touchLastSeen(deps, device, now.toISOString());
  return { accepted: items.length };
}

/**
 * POST /device/v1/telemetry: opens the envelope, parses it as TelemetryMeta, and writes the report twice in one
 * transaction: as the device's latest (`TELEMETRY#LATEST`, overwritten) and in its history by receive time.
 */
export async function uploadTelemetry(deps: UploadDependencies, device: UploadingDevice, body: SealedUpload): Promise<{ ok: true }> {
  const meta = parseSealed(TelemetryMeta, await openUpload(deps, device.client, 'telemetry', body));
  const collectedAt = utcOf(meta.collected_at);
  if (collectedAt === undefined) throw new ValidationError(['meta.collected_at: Must be an ISO date like 1999-01-01T16:50:00Z']);
  const holder = await holderOf(deps, device);
  const now = deps.clock.now();
  const report: TelemetryItem = {
    ...deviceFields(meta),
    client: device.client,
    device_reference: device.deviceReference,
    ...(holder.deviceUserReference === undefined ? {} : { device_user_reference: holder.deviceUserReference }),
    ...(holder.group === undefined ? {} : { group: holder.group }),
    received_at: now.toISOString(),
    collected_at: collectedAt,
  };
  const [latest, history] = telemetryToItems(device.client, report, ulid(now.getTime()));
  await deps.table.transactWrite([
    { kind: 'put', item: latest },
    { kind: 'put', item: history },
  ]);
  await touchLastSeen(deps, device, now.toISOString());
  await recordCarrierOf(deps, device.client, meta.telecom, collectedAt);
  return { ok: true };
}

/**
 * A report naming its serving network (operator code and name, country calling code) is a carrier sighting for the
 * internal console's countries. The report is already stored: a failed sighting is logged, never the device's error.
 */
async function recordCarrierOf(deps: UploadDependencies, client: string, telecom: TelemetryMeta['telecom'], time: string): Promise<void> {
  const { network_operator: code, network_operator_name: name, network_country_code: countryCode, network_country: country } = telecom ?? {};
  if (code === undefined || name === undefined || countryCode === undefined) return;
  try {
    await recordCarrierSeen(deps, client, {
      country_code: countryCode,
      carrier_code: code,
      carrier_name: name,
      ...(country === undefined ? {} : { country_name: country.toUpperCase() }),
      time,
    });
  } catch (error) {
    deps.logger.warn('carrier sighting not recorded', { client, carrier_code: String(code).slice(0, 40), error });
  }
}
