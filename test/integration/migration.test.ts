import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readAlertKey } from '#core/store/entities/alert-key.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { createRowImporter } from '../../lambdas/migrations/import/index.ts';
import { runMigrationImport } from '../../lambdas/migrations/job/import-job.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { api, bearer } from './support/stack.ts';

/**
 * Legacy migration on the local stack, as the portal and `npm run migrate` use it: `POST migrations` (a Pending
 * migration and a pre-signed upload), the PUT of the file to s3rver, `POST migrations/{ref}/start` (the import job runs
 * in the stack's process through the JobRunner port), then the migration and its row results read back. Each file of
 * this test is imported in a tenant of this run.
 */
let tenant: RunTenant;
let other: RunTenant;

const HEADER = JSON.stringify({ kind: 'verity-legacy-export', version: 1, source: 'Legacy Recorder' });
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** A small export: two groups, two users (one offboarded), three devices, one duplicate device and one bad row. */
function smallExport(run: string): string {
  const lines = [
    HEADER,
    { kind: 'group', group_reference: `north-${run}` },
    { kind: 'group', group_reference: `south-${run}` },
    { kind: 'device_user', device_user_reference: `ann-${run}`, group: `north-${run}`, services: ['calls', 'sms'], is_active: true },
    { kind: 'device_user', device_user_reference: `bob-${run}`, group: `south-${run}`, services: ['calls'], is_active: false },
    { kind: 'device', device_reference: `dev-a-${run}`, device_user_reference: `ann-${run}`, is_deactivated: false },
    { kind: 'device', device_reference: `dev-b-${run}`, device_user_reference: `bob-${run}`, is_deactivated: true },
    { kind: 'device', device_reference: `dev-c-${run}`, device_user_reference: `ann-${run}`, is_deactivated: false },
    { kind: 'device', device_reference: `dev-a-${run}`, device_user_reference: `ann-${run}`, is_deactivated: false },
    { kind: 'device', device_reference: 'bad/ref', is_deactivated: 'no' },
  ];
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}

type Json = Record<string, unknown>;

async function submit(caller: RunTenant, filename: string, body: string): Promise<string> {
  const bytes = Buffer.from(body, 'utf8');
  const created = await caller.call('POST', '/migrations', caller.admin, { filename, size_bytes: bytes.length });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const submission = created.body as unknown as MigrationSubmission;
  expect(submission.migration).toMatchObject({ migration_state: 'Pending', filename });
  const upload = await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: bytes });
  expect(upload.status, await upload.text()).toBe(200);
  return submission.migration.migration_reference;
}

async function start(caller: RunTenant, reference: string): Promise<Json> {
  const started = await caller.call('POST', `/migrations/${reference}/start`, caller.admin);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body;
}

/** The migration once it has left Pending (the job runs on after `start` answers). */
async function ended(caller: RunTenant, reference: string): Promise<Json> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await caller.call('GET', `/migrations/${reference}`, caller.admin);
    expect(answer.status).toBe(200);
    if (answer.body.migration_state !== 'Pending') return answer.body;
    if (Date.now() > deadline) throw new Error(`Migration ${reference} still Pending: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function importFile(caller: RunTenant, filename: string, body: string): Promise<Json> {
  const reference = await submit(caller, filename, body);
  await start(caller, reference);
  return ended(caller, reference);
}

/** Every result of a migration, walking the pages. */
async function allResults(caller: RunTenant, reference: string, filter = ''): Promise<Json[]> {
  const results: Json[] = [];
  let cursor: string | undefined;
  do {
    const query = `limit=3${filter}${cursor === undefined ? '' : `&last_key=${encodeURIComponent(cursor)}`}`;
    const page = await caller.call('GET', `/migrations/${reference}/results?${query}`, caller.admin);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    results.push(...(page.body.data as Json[]));
    cursor = page.body.last_key as string | undefined;
  } while (cursor !== undefined);
  return results;
}

async function migrationAlert(caller: RunTenant, scope: 'ops' | 'sec', reference: string) {
  const pointer = await caller.deps.table.get(keys.alert.scopedKey(caller.client, scope, `migration:${reference}`), { consistent: true });
  if (pointer === undefined) return undefined;
  const alert = await caller.deps.table.get(keys.alert.key(caller.client, readAlertKey(pointer).alert_reference), { consistent: true });
  return alert === undefined ? undefined : readAlert(alert);
}

beforeAll(async () => {
  tenant = await createRunTenant('migrate');
  other = await createRunTenant('migrate-other');
});
afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

describe('a legacy export submitted, uploaded and imported', () => {
  let reference: string;
  let first: Json;
  const run = Date.now().toString(36);

  beforeAll(async () => {
    first = await importFile(tenant, 'legacy-export.ndjson', smallExport(run));
    reference = first.migration_reference as string;
  });

  it('ends PartialFail with counts per entity, a result per row and a MigrationAlert', async () => {
    expect(first).toMatchObject({ migration_state: 'PartialFail', filename: 'legacy-export.ndjson' });
    expect(first.error_message).toMatch(/2 results are errors/);
    expect(first.counters).toEqual({
      groups_total: 2,
      groups_new_or_updated: 2,
      device_users_total: 2,
      device_users_new_or_updated: 2,
      devices_total: 5,
      devices_new_or_updated: 3,
    });
    const size = Buffer.byteLength(smallExport(run));
    expect(first.progress).toMatchObject({ rows_read: 10, bytes_read: size, bytes_total: size });
    expect(first.imported).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'GroupAdded', count: 2 }),
        expect.objectContaining({ type: 'UserCreatedOnboarded', count: 1 }),
        expect.objectContaining({ type: 'UserCreatedOffboarded', count: 1 }),
        expect.objectContaining({ type: 'DeviceCreatedActivated', count: 2 }),
        expect.objectContaining({ type: 'DeviceCreatedDeactivated', count: 1 }),
      ]),
    );
    expect(first.import_errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'DuplicateDeviceReference', count: 1, reference: `dev-a-${run}` }),
        expect.objectContaining({ type: 'Error', count: 1 }),
      ]),
    );
    const results = await allResults(tenant, reference);
    expect(results.map((result) => result.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(results[2]).toMatchObject({ row: 4, kind: 'success', type: 'UserCreatedOnboarded', entity: 'DeviceUser', reference: `ann-${run}` });
    expect(results[8]).toMatchObject({ row: 10, kind: 'error', type: 'Error', entity: 'Device' });
    expect(String(results[8]?.message)).toMatch(/is_deactivated: /);
    const alert = await migrationAlert(tenant, 'ops', reference);
    expect(alert).toMatchObject({ alert_type: 'MigrationAlert', alert_severity: 'Medium', alert_state: 'Triggered' });
  });

  it('is listed newest first, with a state filter', async () => {
    const list = await tenant.call('GET', '/migrations?migration_state=PartialFail', tenant.admin);
    expect(list.status).toBe(200);
    expect((list.body.data as Json[]).map((migration) => migration.migration_reference)).toContain(reference);
    const migrated = await tenant.call('GET', '/migrations?migration_state=Quarantined', tenant.admin);
    expect((migrated.body.data as Json[]).map((migration) => migration.migration_reference)).not.toContain(reference);
    const today = new Date().toISOString().slice(0, 10);
    const ranged = await tenant.call('GET', `/migrations?from=${today}&to=${today}`, tenant.admin);
    expect((ranged.body.data as Json[]).map((migration) => migration.migration_reference)).toContain(reference);
    const past = await tenant.call('GET', '/migrations?from=2000-01-01&to=2000-01-02', tenant.admin);
    expect(past.body).toEqual({ count: 0, data: [] });
  });

  it('pages its results and filters them by kind and by result type, with exact totals', async () => {
    const errors = await allResults(tenant, reference, '&kind=error');
    expect(errors.map((result) => [result.row, result.type])).toEqual([
      [9, 'DuplicateDeviceReference'],
      [10, 'Error'],
    ]);
    const activated = await allResults(tenant, reference, '&type=DeviceCreatedActivated');
    expect(activated.map((result) => result.row)).toEqual([6, 8]);
    const total = await tenant.call('GET', `/migrations/${reference}/results?result_type=total&kind=success`, tenant.admin);
    expect(total.body).toEqual({ count: 7 });
    const byType = await tenant.call('GET', `/migrations/${reference}/results?result_type=total&type=GroupAdded`, tenant.admin);
    expect(byType.body).toEqual({ count: 2 });
    // A type of another kind than the one asked for is nothing, not a mistake.
    const none = await tenant.call('GET', `/migrations/${reference}/results?kind=warning&type=GroupAdded`, tenant.admin);
    expect(none.body).toEqual({ count: 0, data: [] });
  });

  it('imported again changes no count: every row is a no-change or an already-there', async () => {
    const platformCounts = async () => ({
      dashboard: (await tenant.call('GET', '/dashboard', tenant.admin)).body,
      licences: (await tenant.call('GET', '/licenses', tenant.admin)).body,
    });
    const before = await platformCounts();
    const again = await importFile(tenant, 'legacy-export.ndjson', smallExport(run));
    expect(await platformCounts()).toEqual(before);
    expect(again.migration_state).toBe('PartialFail');
    const counters = again.counters as Record<string, number>;
    expect(counters).toEqual({
      groups_total: 2,
      groups_new_or_updated: 0,
      device_users_total: 2,
      device_users_new_or_updated: 0,
      devices_total: 5,
      devices_new_or_updated: 0,
    });
    expect((again.imported as Json[]).map((summary) => summary.type).sort()).toEqual(['NoChangeToDevice', 'NoChangeToGroup', 'NoChangeToUser']);
  });

  it('is never listed nor readable in another tenant', async () => {
    const list = await other.call('GET', '/migrations', other.admin);
    expect(list.body).toEqual({ count: 0, data: [] });
    expect((await other.call('GET', `/migrations/${reference}`, other.admin)).status).toBe(404);
    expect((await other.call('GET', `/migrations/${reference}/results`, other.admin)).status).toBe(404);
    expect((await other.call('POST', `/migrations/${reference}/start`, other.admin)).status).toBe(404);
    // Nor with the other tenant's token on this tenant's path.
    const crossed = await api(`/api/v1/${tenant.client}/migrations/${reference}`, { headers: bearer(other.admin) });
    expect([401, 403]).toContain(crossed.status);
  });
});

describe('a file that cannot be imported', () => {
  it('is Quarantined when the malware scan finds something, nothing imported, with a security alert', async () => {
    const run = `q${Date.now().toString(36)}`;
    // The signature on a line of its own: inside JSON its backslash would be escaped and it would not be the signature.
    const body = `${HEADER}\n${JSON.stringify({ kind: 'group', group_reference: `g-${run}` })}\n${EICAR}\n`;
    const migration = await importFile(tenant, 'infected.ndjson', body);
    expect(migration).toMatchObject({ migration_state: 'Quarantined', counters: {} });
    expect(migration.error_message).toMatch(/malware scan found EICAR/);
    expect(migration.progress).toBeUndefined();
    expect(await allResults(tenant, migration.migration_reference as string)).toEqual([]);
    const alert = await migrationAlert(tenant, 'sec', migration.migration_reference as string);
    expect(alert).toMatchObject({ alert_type: 'MigrationAlert', alert_severity: 'High' });
  });

  it('is Failed when it is not an export at all, with the reason, one UnknownFile result and a MigrationAlert', async () => {
    const migration = await importFile(tenant, 'spreadsheet.csv', 'device,user\nd1,ann\n');
    expect(migration.migration_state).toBe('Failed');
    expect(migration.error_message).toMatch(/^The file is not a legacy export: /);
    const results = await allResults(tenant, migration.migration_reference as string);
    expect(results).toEqual([expect.objectContaining({ row: 1, kind: 'error', type: 'UnknownFile' })]);
    const alert = await migrationAlert(tenant, 'ops', migration.migration_reference as string);
    expect(alert).toMatchObject({ alert_type: 'MigrationAlert', alert_severity: 'High' });
  });

  it('cannot start before its upload, nor upload another size than declared, nor start twice once ended', async () => {
    const created = await tenant.call('POST', '/migrations', tenant.admin, { filename: 'late.ndjson', size_bytes: 100 });
    const submission = created.body as unknown as MigrationSubmission;
    const reference = submission.migration.migration_reference;
    const early = await tenant.call('POST', `/migrations/${reference}/start`, tenant.admin);
    expect(early).toEqual({ status: 400, body: expect.objectContaining({ message: expect.stringMatching(/^migration_reference: .*not been uploaded yet/) }) });
    // The link is bound to the 100 bytes declared: storage refuses another size, so there is still nothing to start.
    const wrongSize = await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: Buffer.from(`${HEADER}\n`) });
    expect(wrongSize.status).toBe(403);
    expect(await wrongSize.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const notStored = await tenant.call('POST', `/migrations/${reference}/start`, tenant.admin);
    expect(notStored).toEqual({ status: 400, body: expect.objectContaining({ message: expect.stringMatching(/^migration_reference: .*not been uploaded yet/) }) });
    const done = await importFile(tenant, 'empty-export.ndjson', `${HEADER}\n`);
    expect(done).toMatchObject({ migration_state: 'Migrated', counters: {} });
    const twice = await tenant.call('POST', `/migrations/${done.migration_reference as string}/start`, tenant.admin);
    expect(twice.status).toBe(409);
  });
});

describe('an import stopped part-way', () => {
  it('goes on after its time budget and after a kill, resulting each row exactly once', async () => {
    const run = `k${Date.now().toString(36)}`;
    const groups = Array.from({ length: 12 }, (_, index) => JSON.stringify({ kind: 'group', group_reference: `g${index}-${run}` }));
    const reference = await submit(tenant, 'killed.ndjson', `${[HEADER, ...groups].join('\n')}\n`);
    const input = { client: tenant.client, migration_reference: reference };
    const read = async () => (await tenant.call('GET', `/migrations/${reference}`, tenant.admin)).body;

    // A budget of nothing: one row, a checkpoint, and (in AWS) the next invocation started.
    expect(await runMigrationImport(tenant.deps, { ...input, time_budget_ms: 0 }, createRowImporter)).toEqual({
      migration_reference: reference,
      continued_after_row: 2,
    });
    expect(await read()).toMatchObject({ migration_state: 'Pending', progress: { rows_read: 2 } });

    // The next invocation dies on row 8, after importing rows 3 to 7 whose results were not written yet.
    const dying: typeof createRowImporter = (deps, options) => {
      const importer = createRowImporter(deps, options);
      return {
        importRow: (row, rowNumber) => (rowNumber === 8 ? Promise.reject(new Error('killed')) : importer.importRow(row, rowNumber)),
        finish: () => importer.finish(),
      };
    };
    await expect(runMigrationImport(tenant.deps, input, dying)).rejects.toThrow('killed');
    expect(await read()).toMatchObject({ migration_state: 'Pending', progress: { rows_read: 2 }, counters: { groups_total: 1 } });

    // Resumed: rows 3 to 7 are imported again (already there: no change) and resulted once, as every other row.
    expect(await runMigrationImport(tenant.deps, input, createRowImporter)).toMatchObject({ migration_state: 'Migrated' });
    const ended = await read();
    expect(ended).toMatchObject({ migration_state: 'Migrated', counters: { groups_total: 12 }, progress: { rows_read: 13 } });
    const results = await allResults(tenant, reference);
    expect(results.map((result) => result.row)).toEqual(Array.from({ length: 12 }, (_, index) => index + 2));
    expect(results.filter((result) => result.type === 'NoChangeToGroup').map((result) => result.row)).toEqual([3, 4, 5, 6, 7]);
    // Run once more (a redelivered invocation): nothing changes.
    expect(await runMigrationImport(tenant.deps, input, createRowImporter)).toEqual({ skipped: 'Migrated' });
    expect(await allResults(tenant, reference)).toHaveLength(12);
  });
});

describe('an export file replaced after its import started', () => {
  it('fails the import rather than import the rest of an unscanned file', async () => {
    const run = `r${Date.now().toString(36)}`;
    const first = `${HEADER}\n${JSON.stringify({ kind: 'group', group_reference: `a-${run}` })}\n${JSON.stringify({ kind: 'group', group_reference: `b-${run}` })}\n`;
    const created = await tenant.call('POST', '/migrations', tenant.admin, { filename: 'replaced.ndjson', size_bytes: Buffer.byteLength(first) });
    const submission = created.body as unknown as MigrationSubmission;
    const reference = submission.migration.migration_reference;
    await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: Buffer.from(first) });
    const input = { client: tenant.client, migration_reference: reference };
    expect(await runMigrationImport(tenant.deps, { ...input, time_budget_ms: 0 }, createRowImporter)).toMatchObject({ continued_after_row: 2 });
    // The same size, other bytes, through the upload link that is still valid.
    const second = first.replace(`b-${run}`, `c-${run}`);
    await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: Buffer.from(second) });
    expect(await runMigrationImport(tenant.deps, input, createRowImporter)).toMatchObject({ migration_state: 'Failed' });
    const failed = (await tenant.call('GET', `/migrations/${reference}`, tenant.admin)).body;
    expect(failed.error_message).toMatch(/^The export file was replaced after its import started \(rows up to 2 came from the first one\)/);
    expect((await allResults(tenant, reference)).map((result) => result.row)).toEqual([2]);
  });
});

describe('an import whose malware scan has not finished', () => {
  it('waits Pending, reading nothing, and imports when started again once the scan is done', async () => {
    const run = `s${Date.now().toString(36)}`;
    const reference = await submit(tenant, 'scanned-later.ndjson', `${HEADER}\n${JSON.stringify({ kind: 'group', group_reference: `g-${run}` })}\n`);
    const input = { client: tenant.client, migration_reference: reference };
    // As GuardDuty answers at first: the copy is being scanned.
    const scanning = { ...tenant.deps, scanner: { inspect: async () => ({ verdict: 'pending' as const }) } };
    expect(await runMigrationImport(scanning, input, createRowImporter)).toEqual({ migration_reference: reference, waiting_for: 'malware scan' });
    const waiting = (await tenant.call('GET', `/migrations/${reference}`, tenant.admin)).body;
    expect(waiting).toMatchObject({ migration_state: 'Pending', counters: {} });
    expect(waiting.progress).toBeUndefined();
    // The scan result event starts it again (job/scan-events.ts); this time the verdict is in.
    expect(await runMigrationImport(tenant.deps, input, createRowImporter)).toMatchObject({ migration_state: 'Migrated' });
  });
});

describe('hostile input', () => {
  it('answers 4xx with one `path: message` line per problem on every migration endpoint', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['PUT', '/account/migration', { disable_onboarding: 'yes', disable_payloads: false }, /body\.disable_onboarding: .*\nbody\.disable_offboarding: /],
      ['PUT', '/account/migration', { disable_onboarding: true, disable_offboarding: true, disable_payloads: true, extra: 1 }, /^body\.extra: /],
      ['POST', '/migrations', { filename: '../../etc/passwd', size_bytes: 10 }, /^body\.filename: Must be a file name/],
      ['POST', '/migrations', { filename: 'a.ndjson', size_bytes: 0 }, /^body\.size_bytes: Must be at least 1 byte/],
      ['POST', '/migrations', { filename: 'a.ndjson', size_bytes: 6 * 1024 ** 3 }, /^body\.size_bytes: Must be at most 5 GiB/],
      ['POST', '/migrations', { filename: 'x'.repeat(300), size_bytes: 1 }, /^body\.filename: /],
      ['POST', '/migrations', '{"filename": "a.ndjson", "size_bytes": ', /./],
      ['GET', '/migrations/not-a-ulid', undefined, /^params\.migration_reference: /],
      ['POST', '/migrations/not-a-ulid/start', undefined, /^params\.migration_reference: /],
      ['GET', '/migrations?migration_state=Done', undefined, /^query\.migration_state: /],
      ['GET', '/migrations?from=2020-02-02&to=2020-01-01', undefined, /^query\.from: Must not be after to/],
      ['GET', '/migrations?last_key=forged', undefined, /last_key/],
      ['GET', '/migrations?limit=0', undefined, /^query\.limit: /],
      ['GET', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV/results?kind=fatal', undefined, /^query\.kind: /],
      ['GET', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV/results?type=Oops', undefined, /^query\.type: /],
      ['GET', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV/results?surprise=1', undefined, /query/],
    ];
    for (const [method, path, body, message] of cases) {
      const answer = await tenant.call(method, path, tenant.admin, body);
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      expect(String(answer.body.message), `${method} ${path}`).toMatch(message);
    }
    // A well-formed reference that names nothing is a 404 on every endpoint that takes one.
    for (const [method, path] of [
      ['GET', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
      ['GET', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV/results'],
      ['POST', '/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV/start'],
    ] as const) {
      expect((await tenant.call(method, path, tenant.admin)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('keeps the account switches a caller sets, and refuses a read-only role to change them or to import', async () => {
    const set = await tenant.call('PUT', '/account/migration', tenant.admin, { disable_onboarding: true, disable_offboarding: false, disable_payloads: true });
    expect(set.status).toBe(200);
    const read = await tenant.call('GET', '/account/migration', tenant.admin);
    expect(read.body).toMatchObject({ disable_onboarding: true, disable_offboarding: false, disable_payloads: true, updated_by: 'app:admin-app' });
    await tenant.call('PUT', '/account/migration', tenant.admin, { disable_onboarding: false, disable_offboarding: false, disable_payloads: false });
    expect((await tenant.call('PUT', '/account/migration', tenant.reviewer, { disable_onboarding: true, disable_offboarding: true, disable_payloads: true })).status).toBe(403);
    expect((await tenant.call('POST', '/migrations', tenant.reviewer, { filename: 'a.ndjson', size_bytes: 10 })).status).toBe(403);
  });
});
