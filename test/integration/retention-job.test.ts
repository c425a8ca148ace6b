import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { deviceLogToItem } from '#core/store/entities/device-log.ts';
import { readDisposal, type DisposalItem } from '#core/store/entities/disposal.ts';
import { gpsToItem } from '#core/store/entities/gps.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { dueMarkerItems } from '../../lambdas/account-data/retention/due-index.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { PREVIEW_COUNT_CAP } from '../../lambdas/account-data/retention/retention-preview.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { PROCESSED_BUCKET } from '../../scripts/local/stack.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { signIn } from './support/sign-in.ts';
import { stack } from './support/stack.ts';

/**
 * The retention job on the local stack (DynamoDB Local, s3rver behind the Object Lock proxy), in a tenant of this run:
 * 10,000 old records of six types, legal holds on two device users (and a portal user), markers from the backfill,
 * then two runs, each started twice at once. Nothing held is touched, every deletion and destruction has exactly one
 * disposal record, a deleted recording restores through the API, a destroyed one refuses and its object is gone.
 */
let tenant: RunTenant;
let documents: DynamoDBDocumentClient;
let s3: S3Client;

const USERS = Array.from({ length: 20 }, (_, index) => `u${String(index).padStart(2, '0')}`);
const HELD_USERS = new Set(['u00', 'u01']);
const HELD_OFFICER = 'held-officer';
const DAY = 86_400_000;
const COUNTS = { payloads: 4_000, gps: 2_500, logs: 2_000, alerts: 500, userActivity: 500, deviceActivity: 500 };
const TOTAL = Object.values(COUNTS).reduce((sum, count) => sum + count, 0);
/** Records of held people: a twentieth of each device-bound type per held user, and one activity record in ten of the officer. */
const HELD = ((COUNTS.payloads + COUNTS.gps + COUNTS.logs + COUNTS.deviceActivity) / 20) * 2 + COUNTS.userActivity / 10;
const POLICY = {
  PayloadData: [{ payload_type: 'Call', delete_after_days: 30, destroy_after_days: 100 }],
  GpsData: { delete_after_days: 30, destroy_after_days: 100 },
  DeviceData: { delete_after_days: 30, destroy_after_days: 100 },
  AlertData: { delete_after_days: 30, destroy_after_days: 100 },
  UserActivityData: { delete_after_days: 30, destroy_after_days: 100 },
  DeviceActivityData: { delete_after_days: 30, destroy_after_days: 100 },
};
const payloadRefs: string[] = [];
/** Recordings written without their markers (the backfill's to add). */
const UNMARKED_PAYLOADS = 500;
const UNMARKED = new Set<string>();
/** Payloads (not held) whose processed object exists. */
const withObjects: string[] = [];

async function batchWrite(items: TableItem[]): Promise<void> {
  const tableName = tenant.deps.config.TABLE_NAME;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < items.length) {
        const start = next;
        next += 25;
        let requests = items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
        for (let attempt = 0; requests.length > 0; attempt += 1) {
          if (attempt > 8) throw new Error('BatchWrite left items unprocessed');
          const answer = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
          requests = (answer.UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
      }
    }),
  );
}

async function allDisposals(deps: Dependencies, client: string): Promise<DisposalItem[]> {
  const found: DisposalItem[] = [];
  for await (const page of eachPage(deps.table, keys.disposal.list(client), 1000)) found.push(...page.map(readDisposal));
  return found;
}

async function objectExists(reference: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/** Runs the job to its end, continuations included (each continuation is run here instead of by the job runner). */
async function runToEnd(deps: Dependencies, input: Record<string, unknown>): Promise<Record<string, number> & { invocations: number }> {
  const starts: Array<Record<string, unknown>> = [];
  const chained: Dependencies = { ...deps, jobs: { start: async (_job, next) => void starts.push(next) } };
  const totals: Record<string, number> = {};
  let next: Record<string, unknown> | undefined = input;
  let invocations = 0;
  while (next !== undefined) {
    invocations += 1;
    const result = await retentionJob(chained, next);
    for (const [name, value] of Object.entries(result)) if (typeof value === 'number') totals[name] = (totals[name] ?? 0) + value;
    next = starts.shift();
  }
  return { ...totals, invocations };
}

beforeAll(async () => {
  tenant = await createRunTenant('retain');
  const { client, deps } = tenant;
  documents = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: stack().dynamoEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }));
  s3 = new S3Client({
    endpoint: stack().s3Endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const now = new Date();
  const iso = now.toISOString();
  // The fleet: each user holds one device. Holds are placed before the records exist (nothing to walk).
  const fleet: TableItem[] = USERS.flatMap((user, index) => [
    { ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: iso },
    { ...keys.device.item(client, `d${index}`, user), client, device_reference: `d${index}`, device_user_reference: user },
  ]);
  await batchWrite(fleet);
  await deps.table.put(portalUserItem({ sub: HELD_OFFICER, email: 'held@example.com', client, roles: ['admin'] }, iso, 'seed') as never);
  for (const user of HELD_USERS) expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${user}`, tenant.admin, {})).status).toBe(200);
  expect((await tenant.call('PUT', `/account/legal_holds/PortalUser/${HELD_OFFICER}`, tenant.admin, {})).status).toBe(200);

  // 10,000 records, 200 days old (a minute apart), written with BatchWriteItem and no markers: the backfill adds them.
  const old = (index: number) => new Date(now.getTime() - 200 * DAY - index * 60_000).toISOString();
  const userOf = (index: number) => USERS[index % USERS.length] as string;
  const deviceOf = (index: number) => `d${index % USERS.length}`;
  const records: TableItem[] = [];
  for (let index = 0; index < COUNTS.payloads; index += 1) {
    const reference = `${ulid()}P${index}`;
    payloadRefs.push(reference);
    if (index < UNMARKED_PAYLOADS) UNMARKED.add(reference);
    const time = old(index);
    records.push({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: deviceOf(index), deviceUserReference: userOf(index) }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: 'Processed',
      device_reference: deviceOf(index),
      device_user_reference: userOf(index),
      payload_time: time,
      checksum: `${String(index).padStart(64, '0')}`,
      updated_at: iso,
    });
  }
  for (let index = 0; index < COUNTS.gps; index += 1) {
    records.push(gpsToItem(client, { client, gps_reference: ulid(), device_reference: deviceOf(index), device_user_reference: userOf(index), latitude: 51.5, longitude: -0.1, timestamp: old(index) }));
  }
  for (let index = 0; index < COUNTS.logs; index += 1) {
    records.push(deviceLogToItem(client, { client, log_id: ulid(), device_reference: deviceOf(index), device_user_reference: userOf(index), log_level: 'INFO', log_datetime: old(index), log_message: `line ${index}` }));
  }
  for (let index = 0; index < COUNTS.alerts; index += 1) {
    const reference = ulid();
    records.push({ ...keys.alert.item(client, reference, old(index)), client, alert_reference: reference, alert_state: 'Cleared', alert_scope: 'ops', alert_type: 'DeviceAlert', alert_severity: 'Low', alert_message: 'old', first_occurrence: old(index), last_occurrence: old(index) });
  }
  for (let index = 0; index < COUNTS.userActivity; index += 1) {
    const logId = ulid();
    const user = index % 10 === 0 ? HELD_OFFICER : 'someone';
    records.push({ ...keys.userActivity.item(client, old(index), logId), client, log_id: logId, user_id: user, activity_time: old(index), action: 'payloads:List', is_allowed: true, roles: [], is_client_app: false });
  }
  for (let index = 0; index < COUNTS.deviceActivity; index += 1) {
    const logId = ulid();
    records.push({ ...keys.deviceActivity.item(client, { activityTime: old(index), logId, deviceReference: deviceOf(index) }), client, log_id: logId, device_reference: deviceOf(index), device_user_reference: userOf(index), activity_time: old(index), action: 'device:Authenticate', is_allowed: true });
  }
  expect(records.length).toBe(TOTAL);
  // Their due markers as the write paths put them, but for the first 500 recordings (older data: the backfill's) and
  // the audit trails (indexed by the job).
  const trails = new Set(['UserActivity', 'DeviceActivity']);
  const markers = records
    .filter((item) => !trails.has(item.entity) && !UNMARKED.has(String(item.payload_reference ?? '')))
    .flatMap((item) => dueMarkerItems(client, item));
  await batchWrite([...records, ...markers]);
  // Objects for a few recordings, held and not, through the real BlobStore (the Object Lock proxy).
  for (const [index, reference] of payloadRefs.slice(0, 40).entries()) {
    await deps.blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(`recording ${index}`), { lock: { legalHold: HELD_USERS.has(userOf(index)) } });
    if (!HELD_USERS.has(userOf(index))) withObjects.push(reference);
  }
}, 300_000);

afterAll(async () => {
  documents?.destroy();
  s3?.destroy();
  await tenant?.close();
});

describe('retention job', () => {
  /** The run ids of the first run's two jobs (each disposes of what it reaches first). */
  let firstRuns: string[] = [];

  it('backfills the due index from the existing lists, once', async () => {
    const first = await runToEnd(tenant.deps, { client: tenant.client, backfill: true, batch: 500 });
    // The recordings written without markers and both audit trails (the API calls' own records add a few).
    const missing = UNMARKED_PAYLOADS + COUNTS.userActivity + COUNTS.deviceActivity;
    expect(first.indexed).toBeGreaterThanOrEqual(missing);
    expect(first.indexed).toBeLessThan(missing + 50);
    const again = await runToEnd(tenant.deps, { client: tenant.client, backfill: true, batch: 500 });
    expect(again.indexed).toBe(0);
  }, 300_000);

  it('previews a shorter policy as the run decides: current keeps everything, proposed deletes all but the held', async () => {
    const answer = await tenant.call('POST', '/account/retention/preview', tenant.admin, POLICY);
    expect(answer.status).toBe(200);
    const preview = RetentionPreview.parse(answer.body);
    expect(preview.count_cap).toBe(PREVIEW_COUNT_CAP);
    const row = (type: string, payloadType?: string) => preview.rows.find((one) => one.record_type === type && one.payload_type === payloadType);
    const call = row('PayloadData', 'Call');
    expect(call?.current).toEqual({ deleted: { count: 0, more: false }, destroyed: { count: 0, more: false }, kept: [] });
    // More calls are due than a preview decides: what it decided is either deleted or kept under a legal hold.
    const keptCall = call?.proposed.kept ?? [];
    expect(keptCall.map((kept) => [kept.reason, kept.instead_of])).toEqual([['legal_hold', 'Deleted']]);
    expect(call?.proposed.deleted.more).toBe(true);
    expect((call?.proposed.deleted.count ?? 0) + (keptCall[0]?.count ?? 0)).toBe(PREVIEW_COUNT_CAP);
    // Logs: exactly the cap, the held users' tenth kept; alerts: nobody's, all deleted.
    expect(row('DeviceData')?.proposed.deleted).toEqual({ count: COUNTS.logs - COUNTS.logs / 10, more: false });
    expect(row('DeviceData')?.proposed.kept).toEqual([{ reason: 'legal_hold', instead_of: 'Deleted', count: COUNTS.logs / 10, more: false }]);
    expect(row('AlertData')?.proposed.deleted).toEqual({ count: COUNTS.alerts, more: false });
    expect(row('UserActivityData')?.current.deleted).toEqual({ count: 0, more: false });
    // Types the body leaves out keep their default: nothing of theirs is due.
    expect(row('PayloadData', 'SMS')?.proposed).toEqual({ deleted: { count: 0, more: false }, destroyed: { count: 0, more: false }, kept: [] });
  });

  it('deletes every due record but the held ones, once, with a disposal record each, even run twice at once', async () => {
    expect((await tenant.applied('PUT', '/account/retention', tenant.admin, POLICY)).status).toBe(200);
    const started = performance.now();
    const [a, b] = await Promise.all([runToEnd(tenant.deps, { client: tenant.client }), runToEnd(tenant.deps, { client: tenant.client })]);
    const seconds = (performance.now() - started) / 1000;
    const deleted = (a.deleted ?? 0) + (b.deleted ?? 0);
    console.info(`retention run (delete, twice at once): ${deleted} records in ${seconds.toFixed(1)} s, ${Math.round(deleted / seconds)} records/s`);
    expect(deleted).toBe(TOTAL - HELD);
    expect(a.destroyed ?? 0).toBe(0);

    const disposals = await allDisposals(tenant.deps, tenant.client);
    expect(disposals.length).toBe(TOTAL - HELD);
    expect(new Set(disposals.map((one) => `${one.record_type}/${one.reference}`)).size).toBe(TOTAL - HELD);
    expect(disposals.every((one) => one.action === 'Deleted' && one.policy.delete_after_days === 30 && one.policy.destroy_after_days === 100)).toBe(true);
    const payloadDisposal = disposals.find((one) => one.record_type === 'PayloadData');
    expect(payloadDisposal).toMatchObject({ payload_type: 'Call', policy: { retention_timestamp: 'payload_time' } });
    expect(payloadDisposal?.checksum).toMatch(/^0+\d+$/);
    firstRuns = [...new Set(disposals.map((one) => one.run_id))];
    expect(firstRuns.length).toBeLessThanOrEqual(2);

    // Held records are untouched: payloads of held users still Processed, their other records without a state.
    const held = disposals.filter((one) => one.record_type === 'PayloadData' && payloadRefs.indexOf(one.reference) % 20 < 2);
    expect(held).toEqual([]);
    for (const user of HELD_USERS) {
      for await (const page of eachPage(tenant.deps.table, keys.payload.listByDeviceUser(tenant.client, user), 500)) {
        expect(page.every((item) => item.payload_state === 'Processed')).toBe(true);
      }
    }
    for await (const page of eachPage(tenant.deps.table, keys.gps.byDeviceUser(tenant.client, 'u00'), 500)) {
      expect(page.every((item) => item.retention_state === undefined)).toBe(true);
    }
  }, 600_000);

  it('restores a deleted recording through the API', async () => {
    const reference = withObjects[0] as string;
    expect((await tenant.deps.table.get(keys.payload.key(tenant.client, reference)))?.payload_state).toBe('Deleted');
    const restored = await tenant.call('POST', `/payloads/${reference}/restore`, tenant.admin);
    expect(restored.status).toBe(200);
    expect(restored.body.payload_state).toBe('Processed');
    expect(await objectExists(reference)).toBe(true);
  });

  it('destroys what was deleted a run later: objects gone for good, restore refused, disposal records once each', async () => {
    const later = new Date(Date.now() + DAY).toISOString();
    const started = performance.now();
    // Two chains at once, each continuing itself after every page (budget 0), as a long run in AWS would.
    const [a, b] = await Promise.all([
      runToEnd(tenant.deps, { client: tenant.client, now: later, batch: 250, budget_ms: 0 }),
      runToEnd(tenant.deps, { client: tenant.client, now: later, batch: 250, budget_ms: 0 }),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const destroyed = (a.destroyed ?? 0) + (b.destroyed ?? 0);
    console.info(`retention run (destroy, twice at once, ${a.invocations + b.invocations} invocations): ${destroyed} records in ${seconds.toFixed(1)} s, ${Math.round(destroyed / seconds)} records/s`);
    // Everything deleted before is destroyed, but the restored recording: live again, it is deleted again instead.
    expect(destroyed).toBe(TOTAL - HELD - 1);
    expect((a.deleted ?? 0) + (b.deleted ?? 0)).toBe(1);
    expect(a.invocations).toBeGreaterThan(10);

    const disposals = await allDisposals(tenant.deps, tenant.client);
    const destructions = disposals.filter((one) => one.action === 'Destroyed');
    expect(destructions.length).toBe(TOTAL - HELD - 1);
    expect(new Set(destructions.map((one) => `${one.record_type}/${one.reference}`)).size).toBe(destructions.length);
    expect(new Set(destructions.map((one) => one.run_id)).size).toBeLessThanOrEqual(2);
    expect(destructions.some((one) => firstRuns.includes(one.run_id))).toBe(false);

    const gone = withObjects[1] as string;
    expect(await objectExists(gone)).toBe(false);
    const payload = await tenant.deps.table.get(keys.payload.key(tenant.client, gone));
    expect(payload).toMatchObject({ payload_state: 'Destroyed' });
    expect(payload?.s3_path).toBeUndefined();
    const refused = await tenant.call('POST', `/payloads/${gone}/restore`, tenant.admin);
    expect(refused.status).toBe(409);
    expect(String(refused.body.message)).toMatch(/^payload_state: A destroyed payload cannot be restored/);
    // Other records are removed from the table; held ones and their objects stay.
    expect((await tenant.deps.table.query({ ...keys.gps.byDeviceUser(tenant.client, 'u05'), limit: 10 })).items).toEqual([]);
    expect((await tenant.deps.table.query({ ...keys.gps.byDeviceUser(tenant.client, 'u01'), limit: 10 })).items.length).toBe(10);
    expect(await objectExists(payloadRefs[0] as string)).toBe(true);
    // The restored recording was deleted again, its object kept.
    expect(await objectExists(withObjects[0] as string)).toBe(true);
  }, 600_000);

  it('lists disposal records with filters and cursors, to this tenant only', async () => {
    // Filters apply to the records read (at most 1,000 a request), so a page may be short and carry a cursor: follow it.
    const first = await tenant.call('GET', '/disposals?record_type=GpsData&action=Destroyed&limit=100', tenant.admin);
    expect(first.status).toBe(200);
    let page = first;
    let destroyedFixes = 0;
    for (let requests = 1; ; requests += 1) {
      const rows = page.body.data as Array<Record<string, unknown>>;
      expect(rows.every((one) => one.record_type === 'GpsData' && one.action === 'Destroyed' && typeof one.checksum === 'string')).toBe(true);
      destroyedFixes += rows.length;
      if (page.body.last_key === undefined) break;
      expect(requests).toBeLessThan(100);
      page = await tenant.call('GET', `/disposals?record_type=GpsData&action=Destroyed&limit=100&last_key=${encodeURIComponent(String(page.body.last_key))}`, tenant.admin);
      expect(page.status).toBe(200);
    }
    expect(destroyedFixes).toBe(COUNTS.gps - (COUNTS.gps / 20) * 2);
    expect(first.body.last_key).toBeDefined();
    let deletedInFirstRun = 0;
    for (const run of firstRuns) {
      const total = await tenant.call('GET', `/disposals?run_id=${run}&action=Deleted&result_type=total`, tenant.admin);
      deletedInFirstRun += Number(total.body.count);
    }
    expect(deletedInFirstRun).toBe(TOTAL - HELD);
    // A cursor is bound to its filters; bad filters are 400s.
    expect((await tenant.call('GET', `/disposals?action=Deleted&limit=100&last_key=${encodeURIComponent(String(first.body.last_key))}`, tenant.admin)).status).toBe(400);
    expect((await tenant.call('GET', '/disposals?action=Erased', tenant.admin)).status).toBe(400);
    expect((await tenant.call('GET', '/disposals?from=2026-02-01&to=2026-01-01', tenant.admin)).status).toBe(400);

    // Another tenant's user: refused on this tenant's path, and its own list holds none of these records.
    const other = (await signIn('admin@acme.test')).id_token;
    const crossing = await tenant.call('GET', '/disposals', other);
    expect(crossing.status).toBeGreaterThanOrEqual(400);
    expect(crossing.body.data).toBeUndefined();
    const ownList = await fetch(`${stack().apiUrl}/api/v1/acme/disposals?limit=100`, { headers: { authorization: `Bearer ${other}` } });
    const own = (await ownList.json()) as { data?: Array<{ reference: string }> };
    expect(own.data?.some((one) => payloadRefs.includes(one.reference)) ?? false).toBe(false);
  });
});
