import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { dueMarkerItems, payloadDueMarkerItems } from '../../lambdas/account-data/retention/due-index.ts';
import { recordItem } from '../../lambdas/audit/trail/activity-log.ts';
import { linkTrails } from '../../lambdas/jobs/audit-sequencer.ts';
import { dashboardCounterOperations, deviceCounterChanges, mergeDashboardChanges } from '../../lambdas/metrics/dashboard-counters.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { alertToItem } from '#core/store/entities/alert.ts';
import { deviceToItem } from '#core/store/entities/device.ts';
import { deviceLogToItem } from '#core/store/entities/device-log.ts';
import { deviceUserToItem } from '#core/store/entities/device-user.ts';
import { gpsToItem } from '#core/store/entities/gps.ts';
import { telemetryToItems } from '#core/store/entities/telemetry.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';

/**
 * A tenant's history written straight into the table for the capacity bench (`npm run bench -- capacity`): N
 * recordings with devices, device users, logs, GPS fixes, alerts and activity records in proportion, each item made by
 * the store's own entity writers (payloadToItem, deviceToItem, …) with the retention markers their writers put beside
 * them (due-index.ts), so every index holds what the code would have written. Written by BatchWriteItem, 25 items a
 * call, several calls at once, generated as they go (a million recordings never sit in memory).
 *
 * The last day holds the same RECENT_RECORDINGS at every size, the rest of the history spreads over ten years before:
 * a day's transfer, the newest page of a list or today's alerts then ask for the same answer at 1,000 and at
 * 1,000,000 recordings, and only the history behind them differs.
 */

/** Recordings in the last 24 hours, at every size. */
export const RECENT_RECORDINGS = 200;
const HISTORY_YEARS = 10;
const DAY_MS = 86_400_000;

/** How much of everything else a tenant holds per recording. */
const PER_RECORDING = {
  devices: 1 / 200,
  logs: 1 / 10,
  gps: 1 / 10,
  alerts: 1 / 1_000,
  userActivity: 1 / 40,
  deviceActivity: 1 / 40,
};
// At least a full first page (50) of every list at the smallest size, so both sizes answer the same page.
const AT_LEAST = { devices: 60, logs: 60, gps: 60, alerts: 60, userActivity: 60, deviceActivity: 60 };
/**
 * Devices with a telemetry report, at every size: the first of the fleet. The fleet list then asks for the same
 * reports at 1,000 and at 1,000,000 recordings while the devices that never reported (retired, never enrolled) grow
 * with the fleet: what a list of the reports must not read.
 */
const REPORTING_DEVICES = 60;

const BATCH_ITEMS = 25;
const PARALLEL_BATCHES = 8;
const BATCH_RETRIES = 8;

export interface SeededTenant {
  client: string;
  recordings: number;
  devices: string[];
  deviceUsers: string[];
  /** The newest recording (a detail endpoint's subject). */
  newestRecording: string;
  alerts: string[];
  itemsWritten: number;
  seconds: number;
  /** The window holding the recent recordings (a day's transfer). */
  recentFrom: string;
  recentTo: string;
}

/** How many of `kind` a tenant of `recordings` holds. */
export function proportion(kind: keyof typeof PER_RECORDING, recordings: number): number {
  return Math.max(AT_LEAST[kind], Math.round(recordings * PER_RECORDING[kind]));
}

/** The time of the i-th of `count` things spread over the history before the last day (oldest first). */
function historyTime(now: number, index: number, count: number): Date {
  const span = HISTORY_YEARS * 365 * DAY_MS;
  return new Date(now - DAY_MS - span + Math.floor(((index + 0.5) * span) / Math.max(1, count)));
}

/** The time of the i-th of the recent recordings, spread over the last day (oldest first). */
function recentTime(now: number, index: number): Date {
  return new Date(now - DAY_MS + Math.floor(((index + 0.5) * DAY_MS) / RECENT_RECORDINGS));
}

interface Fleet {
  devices: string[];
  deviceUsers: string[];
}

function* fleetItems(client: string, fleet: Fleet, now: Date): Generator<TableItem> {
  const at = now.toISOString();
  const devices = fleet.devices.map((reference, index) =>
    deviceToItem(client, {
      client,
      device_reference: reference,
      device_user_reference: fleet.deviceUsers[index] as string,
      services: ['calls', 'sms', 'gps'],
      imeis: [String(350_000_000_000_000 + index)],
      is_deactivated: false,
      is_legacy: false,
      phone_numbers: [{ phone_number: `+4477009${String(index).padStart(5, '0')}` }],
      activated_at: at,
      model: 'Pixel 8',
      os_version: '14',
      app_version: '5.2.0',
      updated_at: at,
      updated_by: 'bench',
    }),
  );
  yield* devices;
  for (const [index, reference] of fleet.devices.slice(0, REPORTING_DEVICES).entries()) {
    yield* telemetryToItems(
      client,
      {
        client,
        device_reference: reference,
        device_user_reference: fleet.deviceUsers[index] as string,
        received_at: at,
        collected_at: at,
        health: { battery_level: 80, is_charging: false, storage_free_bytes: 12_000_000_000, wifi_enabled: true, sim_state: 'READY' },
        telecom: { network_operator: '23415', network_operator_name: 'Vodafone UK', network_country: 'gb', signal_strength: -85 },
      },
      `bench-${index}`,
    );
  }
  for (const [index, reference] of fleet.deviceUsers.entries()) {
    const item = deviceUserToItem(client, {
      client,
      device_user_reference: reference,
      services: ['calls', 'sms', 'gps'],
      expected_device_count: 1,
      email: `user${index}@bench.test`,
      first_name: 'Bench',
      surname: `User ${index}`,
      is_active: true,
      is_legacy: false,
      updated_at: at,
      updated_by: 'bench',
    });
    yield item;
    yield* dueMarkerItems(client, item);
  }
}

/** The SMS thread of the i-th recording (a message): three per device. */
export const threadOf = (index: number): string => `bench-thread-${index % 3}`;

/** The partition attributes of the processed-time and thread indexes, as payloadToItem writes them. */
const PROCESSED_KEY = 'by_processed_at_pk';
const THREAD_KEY = 'by_thread_pk';

/** What one tenant's seeding writes: its fleet, how many recordings, as of when. */
interface Seeding {
  client: string;
  fleet: Fleet;
  recordings: number;
  now: Date;
}

function* recordingItems({ client, fleet, recordings, now }: Seeding, newest: { reference?: string }, written: { processedKeys: boolean; threadKeys: boolean }): Generator<TableItem> {
  const history = Math.max(0, recordings - RECENT_RECORDINGS);
  for (let index = 0; index < recordings; index += 1) {
    const time = index < history ? historyTime(now.getTime(), index, history) : recentTime(now.getTime(), index - history);
    const reference = ulid(time.getTime());
    const device = index % fleet.devices.length;
    const payloadTime = time.toISOString();
    // Processed a minute after it was made; uploaded just before.
    const processedAt = new Date(time.getTime() + 60_000).toISOString();
    const isCall = index % 3 !== 0;
    const payload = {
      client,
      payload_reference: reference,
      payload_type: isCall ? ('Call' as const) : ('SMS' as const),
      payload_state: 'Processed' as const,
      payload_time: payloadTime,
      device_reference: fleet.devices[device] as string,
      device_user_reference: fleet.deviceUsers[device] as string,
      key_id: 'bench-key',
      encrypted_dek: 'YmVuY2gtZGVr',
      content_iv: 'YmVuY2gtaXY=',
      sealed_meta: 'YmVuY2gtbWV0YQ==',
      checksum: 'ab'.repeat(32),
      payload_size: isCall ? 480_000 : 300,
      // Each device's messages in a few threads (the SMS thread list's subject).
      ...(isCall ? { payload_duration: 60 + (index % 600) } : { thread_id: threadOf(index) }),
      is_legacy: false,
      is_late: false,
      uploaded_at: payloadTime,
      processed_at: processedAt,
      created_at: payloadTime,
      updated_at: processedAt,
      updated_by: 'bench',
    };
    const item = payloadToItem(client, payload);
    if (PROCESSED_KEY in item) written.processedKeys = true;
    if (THREAD_KEY in item) written.threadKeys = true;
    yield item;
    yield* payloadDueMarkerItems(client, payload);
    newest.reference = reference;
  }
}

function* deviceDataItems(client: string, fleet: Fleet, recordings: number, now: Date): Generator<TableItem> {
  const logs = proportion('logs', recordings);
  for (let index = 0; index < logs; index += 1) {
    const time = historyTime(now.getTime(), index, logs).toISOString();
    const device = index % fleet.devices.length;
    const item = deviceLogToItem(client, {
      client,
      log_id: ulid(Date.parse(time)),
      device_reference: fleet.devices[device] as string,
      device_user_reference: fleet.deviceUsers[device] as string,
      log_level: 'INFO',
      log_class: 'Recorder',
      log_datetime: time,
      log_message: 'Call recorded and sealed',
      received_at: time,
    });
    yield item;
    yield* dueMarkerItems(client, item);
  }
  const fixes = proportion('gps', recordings);
  for (let index = 0; index < fixes; index += 1) {
    const time = historyTime(now.getTime(), index, fixes).toISOString();
    const device = index % fleet.devices.length;
    const item = gpsToItem(client, {
      client,
      gps_reference: ulid(Date.parse(time)),
      device_reference: fleet.devices[device] as string,
      device_user_reference: fleet.deviceUsers[device] as string,
      latitude: 51.5 + (index % 100) / 1_000,
      longitude: -0.12 - (index % 100) / 1_000,
      accuracy: 12,
      timestamp: time,
      provider: 'fused',
      received_at: time,
    });
    yield item;
    yield* dueMarkerItems(client, item);
  }
}

function* alertItems({ client, fleet, recordings, now }: Seeding, references: string[]): Generator<TableItem> {
  const count = proportion('alerts', recordings);
  for (let index = 0; index < count; index += 1) {
    const time = historyTime(now.getTime(), index, count).toISOString();
    const reference = ulid(Date.parse(time));
    references.push(reference);
    const item = alertToItem(client, {
      client,
      alert_reference: reference,
      alert_scope: 'ops',
      alert_type: 'DeviceAlert',
      alert_subject: fleet.devices[index % fleet.devices.length] as string,
      alert_message: 'Device has not uploaded for 3 days',
      // The old ones were dealt with; the newest few are open.
      alert_state: index >= count - 3 ? 'Triggered' : 'Cleared',
      alert_severity: 'Medium',
      first_occurrence: time,
      last_occurrence: time,
      occurrence_count: 1,
      ...(index >= count - 3 ? {} : { cleared_at: time, cleared_by: 'bench', cleared_reason: 'seen' }),
    });
    yield item;
    yield* dueMarkerItems(client, item);
  }
}

function* activityItems(client: string, fleet: Fleet, recordings: number, now: Date): Generator<TableItem> {
  const users = proportion('userActivity', recordings);
  for (let index = 0; index < users; index += 1) {
    const time = historyTime(now.getTime(), index, users);
    const entry = { activity_time: time.toISOString(), user_id: 'bench-admin', action: 'payloads:List', is_allowed: true, status_code: 200, roles: ['Admins'] };
    yield recordItem({ trail: 'user', client, entry }, time).item;
  }
  const devices = proportion('deviceActivity', recordings);
  for (let index = 0; index < devices; index += 1) {
    const time = historyTime(now.getTime(), index, devices);
    const device = fleet.devices[index % fleet.devices.length] as string;
    const entry = { log_id: ulid(time.getTime()), activity_time: time.toISOString(), device_reference: device, action: 'device:Upload', is_allowed: true, status_code: 200 };
    yield recordItem({ trail: 'device', client, entry }, time).item;
  }
}

async function writeBatch(documents: DynamoDBDocumentClient, tableName: string, items: TableItem[]): Promise<void> {
  let pending = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > BATCH_RETRIES) throw new Error('BatchWriteItem left items unprocessed after retries');
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
  }
}

/** Writes the items `source` yields, 25 a call and PARALLEL_BATCHES calls at once; answers how many. */
export async function writeAll(documents: DynamoDBDocumentClient, tableName: string, source: Iterator<TableItem>, progress?: (written: number) => void): Promise<number> {
  let written = 0;
  let done = false;
  // Items of one batch must have distinct keys; the generators never repeat a key.
  const nextBatch = (): TableItem[] => {
    const batch: TableItem[] = [];
    while (!done && batch.length < BATCH_ITEMS) {
      const next = source.next();
      if (next.done === true) done = true;
      else batch.push(next.value);
    }
    return batch;
  };
  await Promise.all(
    Array.from({ length: PARALLEL_BATCHES }, async () => {
      for (let batch = nextBatch(); batch.length > 0; batch = nextBatch()) {
        await writeBatch(documents, tableName, batch);
        const before = written;
        written += batch.length;
        if (progress !== undefined && Math.floor(written / 100_000) > Math.floor(before / 100_000)) progress(written);
      }
    }),
  );
  return written;
}

function* concat(...sources: Array<Iterable<TableItem>>): Generator<TableItem> {
  for (const source of sources) yield* source;
}

/**
 * Seeds `client` (a tenant the local stack already has, with its accounts) with `recordings` recordings and everything
 * in proportion; the tenant's dashboard device counters move by the devices written, as the fleet writers move them.
 * The activity records are written pending, as every call writes them, and linked by the audit sequencer itself, so
 * the trails are whole chains (`npm run audit:verify` holds) and the sequencer's later cost is that of new records.
 */
export async function seedCapacityTenant(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  table: { documents: DynamoDBDocumentClient; tableName: string },
  client: string,
  options: { recordings: number; now?: Date; progress?: (line: string) => void },
): Promise<SeededTenant> {
  const { recordings } = options;
  const started = performance.now();
  const now = options.now ?? new Date();
  const deviceCount = proportion('devices', recordings);
  const fleet: Fleet = {
    devices: Array.from({ length: deviceCount }, () => ulid()),
    deviceUsers: Array.from({ length: deviceCount }, (_, index) => `bench-user-${index}`),
  };
  const newest: { reference?: string } = {};
  const written = { processedKeys: false, threadKeys: false };
  const alerts: string[] = [];
  const seeding = { client, fleet, recordings, now };
  const source = concat(
    fleetItems(client, fleet, now),
    recordingItems(seeding, newest, written),
    deviceDataItems(client, fleet, recordings, now),
    alertItems(seeding, alerts),
    activityItems(client, fleet, recordings, now),
  );
  const itemsWritten = await writeAll(table.documents, table.tableName, source, (count) =>
    options.progress?.(`  ${client}: ${count.toLocaleString('en-GB')} items written (${((performance.now() - started) / 1000).toFixed(0)} s)`),
  );
  const deviceItems = fleet.devices.map((reference) => ({ device_reference: reference, is_deactivated: false, is_legacy: false, services: ['calls'] }));
  await deps.table.transactWrite(
    dashboardCounterOperations(client, mergeDashboardChanges(...deviceItems.map((item) => deviceCounterChanges(undefined, item as never)))),
  );
  // Every recording above was written by payloadToItem: when that writer gives a Processed payload its processed-time
  // keys, the tenant's index is whole, as the backfill marks it on the account (transfer selection reads the index then).
  // Likewise a message's thread keys: the SMS thread list reads the thread's partition then.
  const marks = { ...(written.processedKeys ? { processed_indexed_at: now.toISOString() } : {}), ...(written.threadKeys ? { thread_indexed_at: now.toISOString() } : {}) };
  if (Object.keys(marks).length > 0) await deps.table.update(keys.account.item(client), { set: marks }, { condition: { kind: 'item-exists' } });
  const linked = await linkTrails(deps, client);
  options.progress?.(`  ${client}: ${linked.toLocaleString('en-GB')} activity records linked by the audit sequencer`);
  return {
    client,
    recordings,
    devices: fleet.devices,
    deviceUsers: fleet.deviceUsers,
    newestRecording: newest.reference as string,
    alerts,
    itemsWritten,
    seconds: (performance.now() - started) / 1000,
    recentFrom: new Date(now.getTime() - DAY_MS).toISOString(),
    recentTo: now.toISOString(),
  };
}
