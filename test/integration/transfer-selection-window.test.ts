import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity, type CapacityTotals } from '#core/ports/capacity-meter.ts';
import type { TableItem, TableStore } from '#core/ports/table-store.ts';
import { payloadToItem, type PayloadItem } from '#core/store/entities/payload.ts';
import { readTransferConfig } from '#core/store/entities/transfer-config.ts';
import { readTransferFile } from '#core/store/entities/transfer-file.ts';
import { pendingTransfer, readTransfer, transferToItem, type TransferItem } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import { payloadChange } from '../../lambdas/account-data/retention/record-changes/payload.ts';
import { processedIndexBackfillJob } from '../../lambdas/jobs/processed-index-backfill.ts';
import type { RunContext } from '../../lambdas/transfers/job/context.ts';
import { selectPayloads } from '../../lambdas/transfers/job/selection.ts';
import { ensureTable, LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import type { LocalSftp } from '../../scripts/local/sftp.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';
import { addDevice, capturingJobs, receiverSftp, record, wav } from './transfer-job-fixtures.ts';

/**
 * Transfer selection by processing time (the byProcessedAt index): a run reads its window, not the tenant's history,
 * and chooses exactly what it chose before the index (Processed, of the configuration's types, processed in
 * (`report_from`, `report_to`]). Items read are counted at the table store (every item a Query or a Get answered;
 * selection's Queries carry no filter) and by the capacity meter (DynamoDB's own ScannedCount and read units).
 */
let tenant: RunTenant;
let older: RunTenant;
let sftp: LocalSftp;

const FROM = '2026-06-01T00:00:00.000Z';
const TO = '2026-06-02T00:00:00.000Z';

/** A table store that counts what it read: items answered by Queries and Gets. */
function countingTable(table: TableStore) {
  const read = { items: 0, queries: 0 };
  const counted: TableStore = {
    get: async (key, options) => {
      const item = await table.get(key, options);
      read.items += item === undefined ? 0 : 1;
      return item;
    },
    query: async (query) => {
      const page = await table.query(query);
      read.items += page.items.length;
      read.queries += 1;
      return page;
    },
    put: (item, options) => table.put(item, options),
    update: (key, update, options) => table.update(key, update, options),
    delete: (key, options) => table.delete(key, options),
    transactWrite: (operations) => table.transactWrite(operations),
    batchGet: (itemKeys, options) => table.batchGet(itemKeys, options),
  };
  return { read, table: counted };
}

interface Seeded {
  reference: string;
  type?: string;
  state?: PayloadItem['payload_state'];
  processedAt?: string;
  payloadTime?: string;
}

/** Payload items as processing leaves them (payloadToItem), a hundred to a transaction; `bare`: as written before the index. */
async function seed(deps: Dependencies, client: string, payloads: readonly Seeded[], options: { bare?: boolean } = {}): Promise<void> {
  const items = payloads.map((payload) => {
    const item = payloadToItem(client, {
      client,
      payload_reference: payload.reference,
      payload_type: (payload.type ?? 'Call') as PayloadItem['payload_type'],
      payload_state: payload.state ?? 'Processed',
      payload_time: payload.payloadTime ?? payload.processedAt ?? FROM,
      device_reference: 'dev-xfer',
      ...(payload.processedAt === undefined ? {} : { processed_at: payload.processedAt, uploaded_at: payload.processedAt }),
      checksum: 'ab'.repeat(32),
    });
    if (options.bare !== true) return item;
    const { by_processed_at_pk: _pk, by_processed_at_sk: _sk, ...bare } = item;
    return bare as TableItem;
  });
  for (let start = 0; start < items.length; start += 100) {
    await deps.table.transactWrite(items.slice(start, start + 100).map((item) => ({ kind: 'put' as const, item })));
  }
}

/** `count` Processed Calls processed (and recorded) day by day before `before`, named `<prefix>-<n>`. */
function history(prefix: string, count: number, before = FROM): Seeded[] {
  const end = new Date(before).getTime();
  return Array.from({ length: count }, (_, n) => {
    const at = new Date(end - (n + 1) * 3_600_000).toISOString();
    return { reference: `${prefix}-${String(n).padStart(5, '0')}`, processedAt: at, payloadTime: at };
  });
}

/** A Payload configuration of Calls and Photos, made through the API and read back as the job reads it. */
async function createConfig(on: RunTenant, reference: string) {
  const created = await on.call('POST', `/transfer_configs/${reference}`, on.admin, {
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call', 'Photo'],
    schedule: '',
    transfer_file_format: 'Uncompressed',
    params: { server: sftp.host, port: sftp.port, root_directory: `/${reference}`, username: sftp.username, host_key_fingerprint: sftp.hostKeyFingerprint },
    secured_data: { sftp_password: sftp.password },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/**
 * Runs the selection of a new transfer of `configReference` over (`from`, `to`] as the job's first invocation does,
 * and answers what it chose and what it read.
 */
async function select(
  on: RunTenant,
  configReference: string,
  window: { from?: string; to: string },
  extra: Partial<TransferItem> = {},
): Promise<{ chosen: string[]; read: { items: number; queries: number }; capacity: CapacityTotals; transfer: TransferItem }> {
  const { deps, client } = on;
  const leaseId = ulid();
  const transfer: TransferItem = {
    ...pendingTransfer(client, { transfer_config_reference: configReference, transfer_type: 'Payload' }, {
      now: new Date(),
      startedBy: 'test',
      extra: { ...(window.from === undefined ? {} : { report_from: window.from }), report_to: window.to },
    }),
    transfer_state: 'InProgress',
    lease_id: leaseId,
    ...extra,
  };
  await deps.table.put(transferToItem(transfer), { condition: { kind: 'item-not-exists' } });
  const config = readTransferConfig((await deps.table.get(keys.transferConfig.key(client, configReference), { consistent: true })) as TableItem);
  const { read, table } = countingTable(deps.table);
  const context: RunContext = {
    deps: { ...deps, table },
    client,
    transferId: transfer.transfer_id,
    config,
    leaseId,
    limits: { budgetMs: 120_000, maxFiles: Number.MAX_SAFE_INTEGER, filesAtOnce: 1, maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 },
    deadline: performance.now() + 120_000,
    filesHandled: 0,
    payloadsRead: new Map(),
    destination: () => Promise.reject(new Error('selection opens no destination')),
    writeFile: () => Promise.reject(new Error('selection delivers no file')),
  };
  const { result: complete, capacity } = await measureCapacity(() => selectPayloads(context, transfer, undefined));
  expect(complete).toBe(true);
  const files = await readAll(deps.table, { ...keys.transferFile.list(client, transfer.transfer_id, '1'), consistent: true });
  const stored = readTransfer((await deps.table.get(keys.transfer.key(client, transfer.transfer_id), { consistent: true })) as TableItem);
  return { chosen: files.map((file) => readTransferFile(file).name).sort(), read, capacity, transfer: stored };
}

beforeAll(async () => {
  [tenant, older] = await Promise.all([createRunTenant('xsel'), createRunTenant('xsel-old')]);
  sftp = await receiverSftp();
  await Promise.all([createConfig(tenant, 'daily'), createConfig(older, 'daily')]);
}, 120_000);

afterAll(async () => {
  await sftp?.stop();
  await Promise.all([tenant?.close(), older?.close()]);
});

describe('transfer selection by processing time', () => {
  // What the window holds: carried, and left out at its edges, for another type, or in another state.
  const inWindow: Seeded[] = [
    { reference: 'in-1', processedAt: '2026-06-01T00:00:00.001Z' },
    { reference: 'in-2', processedAt: '2026-06-01T09:30:00.000Z', type: 'Photo' },
    { reference: 'in-3', processedAt: '2026-06-01T12:00:00.000Z' },
    { reference: 'in-4', processedAt: '2026-06-01T18:00:00.000Z' },
    { reference: 'in-5', processedAt: '2026-06-01T23:59:59.999Z' },
    // Processed at the window's very end: carried (the window is (report_from, report_to]).
    { reference: 'in-end', processedAt: TO },
    // Recorded long before, processed in the window (an upload after weeks offline): carried.
    { reference: 'in-late-upload', processedAt: '2026-06-01T06:00:00.000Z', payloadTime: '2026-01-01T00:00:00.000Z' },
  ];
  const leftOut: Seeded[] = [
    // Processed at the window's start: the previous window carried it.
    { reference: 'edge-start', processedAt: FROM },
    { reference: 'after-end', processedAt: '2026-06-02T00:00:00.001Z' },
    { reference: 'video', processedAt: '2026-06-01T10:00:00.000Z', type: 'Video' },
    { reference: 'failed', state: 'Failed', payloadTime: '2026-06-01T10:00:00.000Z' },
    { reference: 'recorded', state: 'Recorded', payloadTime: '2026-06-01T11:00:00.000Z' },
    { reference: 'deleted', state: 'Deleted', processedAt: '2026-06-01T11:30:00.000Z' },
  ];
  const carried = inWindow.map((payload) => payload.reference).sort();

  it('reads the items of its window, whatever the history before it: the same count with 40 and with 540 older recordings', async () => {
    await seed(tenant.deps, tenant.client, [...inWindow, ...leftOut, ...history('old', 40)]);
    const first = await select(tenant, 'daily', { from: FROM, to: TO });
    expect(first.chosen).toEqual(carried);
    expect(first.transfer).toMatchObject({ payload_count: carried.length, files_total: carried.length, selection_done: true });

    await seed(tenant.deps, tenant.client, history('older', 500, '2026-05-29T00:00:00.000Z'));
    const second = await select(tenant, 'daily', { from: FROM, to: TO });
    expect(second.chosen).toEqual(carried);
    expect(second.read).toEqual(first.read);
    // Read: the account (whether the tenant's index is whole), and the Processed recordings of the window with its
    // two edge cases (processed at report_from, the Video): never the history before it.
    expect(second.read.items).toBe(1 + carried.length + 2);
    expect(second.read.queries).toBe(1);
    // What DynamoDB itself reports: the items it evaluated and the read units it bills, the same at both sizes.
    expect(second.capacity.itemsRead).toBe(second.read.items);
    expect(second.capacity.readUnits).toBe(first.capacity.readUnits);
  }, 120_000);

  it('a first run (no report_from) carries everything processed up to report_to, in pages, each chosen once', async () => {
    const everything = await select(tenant, 'daily', { to: TO });
    const expected = [...carried, 'edge-start', ...history('old', 40).map((payload) => payload.reference), ...history('older', 500, '2026-05-29T00:00:00.000Z').map((payload) => payload.reference)].sort();
    expect(everything.chosen).toEqual(expected);
    expect(everything.transfer.payload_count).toBe(expected.length);
    // 90 a page: the pages of the Processed recordings up to report_to (the Video among them), nothing past it.
    expect(everything.read.items).toBe(1 + expected.length + 1);
  }, 180_000);

  it('carries a recording whose device clock ran ahead (recorded "after" the window) when it was processed in it', async () => {
    await seed(tenant.deps, tenant.client, [{ reference: 'clock-ahead', processedAt: '2026-06-03T08:00:00.000Z', payloadTime: '2026-06-09T00:00:00.000Z' }]);
    const next = await select(tenant, 'daily', { from: TO, to: '2026-06-04T00:00:00.000Z' });
    expect(next.chosen).toEqual(['after-end', 'clock-ahead']);
  });

  it('a recording leaves the index when retention deletes it and comes back when it is restored', async () => {
    await addDevice(tenant.deps, tenant.client);
    const made = await record(tenant.deps, tenant.client, 'Call', wav(1_000));
    const key = keys.payload.key(tenant.client, made.reference);
    const processed = (await tenant.deps.table.get(key, { consistent: true })) as TableItem;
    expect(processed).toMatchObject(keys.payload.processedKeys(tenant.client, made.reference, String(processed.processed_at)));
    const window = { from: new Date(Date.parse(String(processed.processed_at)) - 1).toISOString(), to: String(processed.processed_at) };
    expect((await select(tenant, 'daily', window)).chosen).toEqual([made.reference]);

    const disposal = { disposal_id: ulid(), disposed_at: new Date().toISOString() };
    const asRead = { kind: 'expression' as const, expression: '#s = :s', names: { '#s': 'payload_state' }, values: { ':s': 'Processed' } };
    await tenant.deps.table.transactWrite(payloadChange(processed, { action: 'Deleted', condition: asRead, disposal }, 'job:retention'));
    const deleted = (await tenant.deps.table.get(key, { consistent: true })) as TableItem;
    for (const name of keys.payload.processedKeyAttributes) expect(deleted).not.toHaveProperty(name);
    const none = await select(tenant, 'daily', window);
    expect(none.chosen).toEqual([]);
    expect(none.read.items).toBe(1);

    const restored = await tenant.call('POST', `/payloads/${made.reference}/restore`, tenant.admin);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await tenant.deps.table.get(key, { consistent: true })).toMatchObject(keys.payload.processedKeys(tenant.client, made.reference, String(processed.processed_at)));
    expect((await select(tenant, 'daily', window)).chosen).toEqual([made.reference]);
  }, 60_000);
});

describe('a tenant whose recordings predate the index', () => {
  const inWindow: Seeded[] = [
    { reference: 'in-1', processedAt: '2026-06-01T08:00:00.000Z' },
    { reference: 'in-2', processedAt: '2026-06-01T20:00:00.000Z', type: 'Photo' },
  ];
  const pre = [
    ...inWindow,
    ...history('old', 150),
    { reference: 'deleted', state: 'Deleted' as const, processedAt: '2026-06-01T09:00:00.000Z' },
    // Deleted by code that did not know the index, after it had been indexed: still holding keys it must lose.
    { reference: 'stale', state: 'Deleted' as const, processedAt: '2026-06-01T10:00:00.000Z' },
  ];

  beforeAll(async () => {
    // As an older tenant stands after the deploy: its payloads written without the keys, its account not marked.
    await seed(older.deps, older.client, pre, { bare: true });
    await older.deps.table.update(keys.payload.key(older.client, 'stale'), { set: keys.payload.processedKeys(older.client, 'stale', '2026-06-01T10:00:00.000Z') });
    await older.deps.table.update(keys.account.item(older.client), { remove: ['processed_indexed_at'] });
  }, 60_000);

  it('is read whole until backfilled, choosing the same; the backfill resumes across runs, then the window alone is read', async () => {
    const before = await select(older, 'daily', { from: FROM, to: TO });
    expect(before.chosen).toEqual(['in-1', 'in-2']);
    // The account, then the tenant's whole list up to report_to by recording time.
    expect(before.read.items).toBe(1 + pre.length);

    // One page per run: it starts itself again with its position, and marks the tenant once the walk is whole.
    const jobs = capturingJobs();
    const runs = [await processedIndexBackfillJob({ ...older.deps, jobs }, { client: older.client }, { pages: 1 })];
    while (jobs.started.length > 0) {
      const next = jobs.started.shift() as { job: string; input: Record<string, unknown> };
      expect(next.job).toBe('processed-index-backfill');
      runs.push(await processedIndexBackfillJob({ ...older.deps, jobs }, next.input, { pages: 1 }));
    }
    expect(runs.length).toBe(2);
    expect(runs[0]).toMatchObject({ outcome: 'more', at: older.client });
    expect(runs.at(-1)).toMatchObject({ outcome: 'done', indexed: pre.length - 2, unindexed: 1, tenants: 1 });
    const account = await older.deps.table.get(keys.account.item(older.client), { consistent: true });
    expect(account?.processed_indexed_at).toEqual(expect.any(String));
    for (const reference of ['deleted', 'stale']) {
      const deleted = await older.deps.table.get(keys.payload.key(older.client, reference), { consistent: true });
      for (const name of keys.payload.processedKeyAttributes) expect(deleted, reference).not.toHaveProperty(name);
    }
    const indexedOne = await older.deps.table.get(keys.payload.key(older.client, 'old-00007'), { consistent: true });
    expect(indexedOne).toMatchObject(keys.payload.processedKeys(older.client, 'old-00007', String(indexedOne?.processed_at)));

    const after = await select(older, 'daily', { from: FROM, to: TO });
    expect(after.chosen).toEqual(['in-1', 'in-2']);
    expect(after.read.items).toBe(1 + inWindow.length);

    // Run again: nothing to write, and the mark keeps its first time.
    expect(await processedIndexBackfillJob({ ...older.deps, jobs }, { client: older.client })).toMatchObject({ outcome: 'done', indexed: 0, unindexed: 0 });
    expect((await older.deps.table.get(keys.account.item(older.client), { consistent: true }))?.processed_indexed_at).toBe(account?.processed_indexed_at);
  }, 120_000);

  it('a selection that stopped part way on the whole list goes on there after the tenant is indexed', async () => {
    // Its position: the whole list (gsi1) just past `old-00100`, as a run before the backfill would have saved it.
    const at = (await older.deps.table.get(keys.payload.key(older.client, 'old-00100'), { consistent: true })) as TableItem;
    const cursor = { pk: at.pk, sk: at.sk, gsi1pk: String(at.gsi1pk), gsi1sk: String(at.gsi1sk) };
    const resumed = await select(older, 'daily', { from: FROM, to: TO }, { selection_cursor: JSON.stringify(cursor) });
    expect(resumed.chosen).toEqual(['in-1', 'in-2']);
    // What follows the position on the whole list: 100 older recordings, the two deleted ones and the window's two.
    expect(resumed.read.items).toBe(100 + 2 + inWindow.length);
  }, 60_000);
});

describe('the backfill over every tenant', () => {
  it('walks the tenants in account-list order, stopping within a tenant and between two, and marks each once walked', async () => {
    // A table of its own on the stack's DynamoDB Local, so "every tenant" is these two and no other test's.
    const run = ulid().toLowerCase().slice(-8);
    const tableName = `verity-backfill-${run}`;
    const dynamo = new DynamoDBClient({ endpoint: stack().dynamoEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    try {
      await ensureTable(dynamo, tableName);
      const deps = buildDependencies(loadConfig({ ...stack().env, TABLE_NAME: tableName, LOG_LEVEL: 'error' }));
      const [first, second] = [`bf-a-${run}`, `bf-b-${run}`];
      for (const client of [first, second]) await deps.table.put({ ...keys.account.item(client), client, created_at: FROM });
      await seed(deps, first, history('a', 150), { bare: true });
      await seed(deps, second, history('b', 5), { bare: true });

      const jobs = capturingJobs();
      const runs = [await processedIndexBackfillJob({ ...deps, jobs }, {}, { pages: 1 })];
      while (jobs.started.length > 0) runs.push(await processedIndexBackfillJob({ ...deps, jobs }, (jobs.started.shift() as { input: Record<string, unknown> }).input, { pages: 1 }));
      expect(runs).toEqual([
        { outcome: 'more', indexed: 100, unindexed: 0, threaded: 0, tenants: 0, at: first },
        { outcome: 'more', indexed: 150, unindexed: 0, threaded: 0, tenants: 1, after: first },
        { outcome: 'more', indexed: 155, unindexed: 0, threaded: 0, tenants: 2, after: second },
        { outcome: 'done', indexed: 155, unindexed: 0, threaded: 0, tenants: 2 },
      ]);
      for (const client of [first, second]) {
        expect((await deps.table.get(keys.account.item(client), { consistent: true }))?.processed_indexed_at).toEqual(expect.any(String));
      }
      const listed = await readAll(deps.table, keys.payload.listProcessed(first));
      expect(listed.length).toBe(150);
    } finally {
      await dynamo.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      dynamo.destroy();
    }
  }, 120_000);
});
