import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import type { LocalSftp } from '../../scripts/local/sftp.ts';
import { transferJob } from '../../lambdas/transfers/job/transfer-job.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { addDevice, capturingJobs, jpeg, pendingTransfer, receiverSftp, record, runToEnd, storedTransfer, wav, type Recording } from './transfer-job-fixtures.ts';

/**
 * The transfers endpoints (list, detail, files, run again) over HTTP against transfers the job really made: filters
 * and cursors, what a payload-type-limited or group-limited role sees, hostile input answered with `path: message`
 * lines, and another tenant's transfer answered as a missing one.
 */
let tenant: RunTenant;
let other: RunTenant;
let deps: Dependencies;
let sftp: LocalSftp;
const recordings: Recording[] = [];
let succeeded: string;
let failed: string;
let scheduled: string;
const LINE = /^[^\s:]+: \S.*$/;

const sftpConfig = (root: string, password: string) => ({
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call', 'Photo'],
  schedule: '',
  transfer_file_format: 'Uncompressed',
  params: { server: sftp.host, port: sftp.port, root_directory: root, username: sftp.username, host_key_fingerprint: sftp.hostKeyFingerprint },
  secured_data: { sftp_password: password },
});

/** A role of the tenant, written as the roles service stores one (client apps hold roles; the roles API is for users). */
async function putRole(reference: string, permissions: unknown[], payloadTypes: string[]): Promise<void> {
  await deps.table.put({
    ...keys.role.item(tenant.client, reference),
    client: tenant.client,
    role_reference: reference,
    description: reference,
    permissions,
    payload_types: payloadTypes,
    cidr_ranges: [],
    alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
    is_alertable: false,
    is_system: false,
    updated_at: new Date().toISOString(),
    updated_by: 'test',
  });
}

beforeAll(async () => {
  [tenant, other] = await Promise.all([createRunTenant('xfer-runs'), createRunTenant('xfer-other')]);
  deps = tenant.deps;
  sftp = await receiverSftp();
  await addDevice(deps, tenant.client);
  recordings.push(await record(deps, tenant.client, 'Call', wav(2_000)));
  recordings.push(await record(deps, tenant.client, 'Photo', jpeg(3_000)));
  expect((await tenant.call('POST', '/transfer_configs/good', tenant.admin, sftpConfig('/good', sftp.password))).status).toBe(201);
  expect((await tenant.call('POST', '/transfer_configs/refused', tenant.admin, sftpConfig('/refused', 'wrong'))).status).toBe(201);
  succeeded = await pendingTransfer(deps, tenant.client, 'good');
  await runToEnd(deps, { client: tenant.client, transfer_id: succeeded });
  failed = await pendingTransfer(deps, tenant.client, 'refused');
  await runToEnd(deps, { client: tenant.client, transfer_id: failed, backoff_ms: 1, max_attempts: 1 });
  // A scheduled run names no transfer: the job records one itself, with the window after the last Succeeded one.
  const result = await transferJob({ ...deps, jobs: capturingJobs() }, { client: tenant.client, transfer_config_reference: 'good', trigger: 'schedule' });
  scheduled = String(result.transfer_id);
}, 120_000);

afterAll(async () => {
  await sftp?.stop();
  await Promise.all([tenant?.close(), other?.close()]);
});

describe('transfers over HTTP', () => {
  it('lists newest first with progress, filters by state and configuration, and pages with a cursor', async () => {
    expect(await storedTransfer(deps, tenant.client, scheduled)).toMatchObject({ transfer_state: 'Succeeded', started_by: 'schedule', payload_count: 0 });
    const all = await tenant.call('GET', '/transfers', tenant.admin);
    expect(all.status).toBe(200);
    const ids = (all.body.data as Array<Record<string, unknown>>).map((transfer) => transfer.transfer_id);
    expect(ids).toEqual([scheduled, failed, succeeded]);
    expect((all.body.data as Array<Record<string, unknown>>)[2]).toMatchObject({ transfer_state: 'Succeeded', files_total: 4, files_done: 4, payload_count: 2 });
    expect(JSON.stringify(all.body)).not.toContain('lease');

    const byState = await tenant.call('GET', '/transfers?transfer_state=Failed', tenant.admin);
    expect((byState.body.data as Array<Record<string, unknown>>).map((transfer) => transfer.transfer_id)).toEqual([failed]);
    const byConfig = await tenant.call('GET', '/transfers?transfer_config_reference=good', tenant.admin);
    expect((byConfig.body.data as Array<Record<string, unknown>>).map((transfer) => transfer.transfer_id)).toEqual([scheduled, succeeded]);
    expect((await tenant.call('GET', '/transfers?transfer_config_reference=good&result_type=total', tenant.admin)).body).toEqual({ count: 2 });
    const today = new Date().toISOString().slice(0, 10);
    expect((await tenant.call('GET', `/transfers?from=${today}&to=${today}&result_type=total`, tenant.admin)).body).toEqual({ count: 3 });
    expect((await tenant.call('GET', '/transfers?to=2020-01-01&result_type=total', tenant.admin)).body).toEqual({ count: 0 });

    const first = await tenant.call('GET', '/transfers?limit=2', tenant.admin);
    expect(first.body.count).toBe(2);
    const rest = await tenant.call('GET', `/transfers?limit=2&last_key=${encodeURIComponent(String(first.body.last_key))}`, tenant.admin);
    expect((rest.body.data as Array<Record<string, unknown>>).map((transfer) => transfer.transfer_id)).toEqual([succeeded]);
    expect(rest.body.last_key).toBeUndefined();
    // A cursor is bound to its list.
    const mixed = await tenant.call('GET', `/transfers?limit=2&transfer_state=Failed&last_key=${encodeURIComponent(String(first.body.last_key))}`, tenant.admin);
    expect(mixed).toMatchObject({ status: 400, body: { message: 'query.last_key: Invalid cursor' } });
  });

  it('shows a failed transfer with its reason; a Succeeded one cannot be run again, a Failed one can', async () => {
    const detail = await tenant.call('GET', `/transfers/${failed}`, tenant.admin);
    expect(detail.body).toMatchObject({ transfer_state: 'Failed', transfer_config_reference: 'refused' });
    expect(String(detail.body.error_message)).toMatch(/^The destination could not be opened: /);
    const again = await tenant.call('POST', `/transfers/${succeeded}/run`, tenant.admin);
    expect(again).toMatchObject({ status: 409, body: { message: 'Every file of this transfer was delivered; run its configuration for new recordings' } });
    const rerun = await tenant.call('POST', `/transfers/${failed}/run`, tenant.admin);
    expect(rerun.status).toBe(202);
    expect(rerun.body).toMatchObject({ transfer_state: 'Pending' });
    expect(await storedTransfer(deps, tenant.client, String(rerun.body.transfer_id))).toMatchObject({ rerun_of: failed, transfer_config_reference: 'refused' });
    // The reader role may read transfers but not run them.
    expect((await tenant.call('POST', `/transfers/${failed}/run`, tenant.reviewer)).status).toBe(403);
  });

  it('leaves out the files of payload types a role may not read, and refuses a group-limited role', async () => {
    await putRole('calls-only', [{ actions_matching: 'transfers:*', is_denied: false, is_regex: false }], ['Call']);
    const token = await tenant.tokenFor('calls-only');
    const files = await tenant.call('GET', `/transfers/${succeeded}/files`, token);
    expect(files.status, JSON.stringify(files.body)).toBe(200);
    const call = recordings.find((recording) => recording.type === 'Call') as Recording;
    expect((files.body.data as Array<Record<string, unknown>>).map((file) => file.payload_reference ?? file.file_kind)).toEqual([call.reference, 'Manifest', 'Manifest']);
    const detail = await tenant.call('GET', `/transfers/${succeeded}`, token);
    expect((detail.body.transfers as unknown[]).length).toBe(3);

    await putRole('one-group', [{ actions_matching: 'transfers:*', is_denied: false, is_regex: false, conditions: [{ names_matching: 'north' }] }], ['Call', 'Photo']);
    const groupToken = await tenant.tokenFor('one-group');
    const refused = await tenant.call('GET', '/transfers', groupToken);
    expect(refused).toMatchObject({ status: 403, body: { message: 'Transfers carry the payloads of every group: a role limited to some groups cannot read them' } });
    expect((await tenant.call('GET', `/transfers/${succeeded}/files`, groupToken)).status).toBe(403);
  });

  it('answers hostile input with a 400 naming each problem, never a 5xx', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['GET', '/transfers/not-a-ulid', /^params\.transfer_id: /],
      ['GET', `/transfers/${'Z'.repeat(300)}`, /^params\.transfer_id: /],
      ['GET', '/transfers/..%2F..%2Fetc/files', /^params\.transfer_id: /],
      ['POST', "/transfers/'%3B%20DROP/run", /^params\.transfer_id: /],
      ['GET', '/transfers?transfer_state=Done', /^query\.transfer_state: /],
      ['GET', '/transfers?limit=0', /^query\.limit: /],
      ['GET', '/transfers?limit=100000', /^query\.limit: /],
      ['GET', '/transfers?from=2026-13-45', /^query\.from: /],
      ['GET', '/transfers?from=2026-11-25&to=2026-11-01', /^query\.from: Must not be after to$/],
      ['GET', '/transfers?last_key=forged.cursor', /^query\.last_key: Invalid cursor$/],
      ['GET', '/transfers?transfer_config_reference=ab', /^query\.transfer_config_reference: /],
      ['GET', '/transfers?bogus=1', /^query\.bogus: /],
      ['GET', `/transfers/${succeeded}/files?file_state=Gone`, /^query\.file_state: /],
      ['GET', `/transfers/${succeeded}/files?last_key=${'x'.repeat(3000)}`, /^query\.last_key: /],
    ];
    for (const [method, path, expected] of cases) {
      const answer = await tenant.call(method, path, tenant.admin);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(400);
      const lines = String(answer.body.message).split('\n');
      for (const line of lines) expect(line, path).toMatch(LINE);
      expect(lines.some((line) => expected.test(line)), `${path}: ${String(answer.body.message)}`).toBe(true);
    }
    // A well-formed id of no transfer is a 404, for each endpoint.
    const missing = '01JAAAAAAAAAAAAAAAAAAAAAAA';
    expect((await tenant.call('GET', `/transfers/${missing}`, tenant.admin)).status).toBe(404);
    expect((await tenant.call('GET', `/transfers/${missing}/files`, tenant.admin)).status).toBe(404);
    expect((await tenant.call('POST', `/transfers/${missing}/run`, tenant.admin)).status).toBe(404);
  });

  it("answers another tenant's transfer as a missing one", async () => {
    expect(await other.call('GET', `/transfers/${succeeded}`, other.admin)).toMatchObject({ status: 404, body: { message: 'Transfer not found' } });
    expect((await other.call('GET', `/transfers/${succeeded}/files`, other.admin)).status).toBe(404);
    expect((await other.call('POST', `/transfers/${failed}/run`, other.admin)).status).toBe(404);
    expect((await other.call('GET', '/transfers', other.admin)).body).toMatchObject({ count: 0, data: [] });
    // A token of one tenant on another tenant's path is refused outright (its app is unknown there).
    const crossing = await tenant.call('GET', `/transfers/${succeeded}`, other.admin);
    expect([401, 403]).toContain(crossing.status);
  });
});
