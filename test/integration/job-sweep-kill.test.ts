import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { readMigration, type MigrationItem } from '#core/store/entities/migration.ts';
import { readTransfer, type TransferItem } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { signInDemoAccount } from '../../scripts/device/portal-sign-in.ts';
import { sampleExportLines } from '../../scripts/migration/sample-rows.ts';
import { freePort } from '../../scripts/local/processes.ts';
import { REPO_ROOT } from '../../scripts/local/stack.ts';
import { addDevice, record, wav, type Recording } from './transfer-job-fixtures.ts';

/**
 * Jobs that always finish, the hard way: the local stack runs as a process of its own (support/stack-process.ts, on a
 * data folder kept across restarts), a transfer of 8 recordings to its SFTP stand-in and a migration of 250 rows
 * are started through the API, and the whole stack is killed with SIGKILL (its process group: DynamoDB Local, s3rver
 * and the process running both jobs) while both are running. Started again on the same folder, nothing is asked of
 * it: its start-up sweep (lambdas/jobs/job-sweep.ts) must find both jobs' leases run out and resume them, and both must
 * end by themselves, every recording at the receiver exactly once, no temporary file left, every row imported once.
 * The long-job lease is made short through the configuration (a 5 s budget, a 25 s margin).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verity-kill-'));
const sftpPassword = `pw-${randomBytes(6).toString('hex')}`;
// Five times the files a transfer sends at once, so the kill lands while some are still to go.
const RECORDINGS = 40;
const MIGRATION_ROWS = 250;

interface RunningStack {
  child: ChildProcess;
  apiUrl: string;
  env: Record<string, string>;
  sftp: { host: string; port: number; username: string; root: string; hostKeyFingerprint: string };
  output: string[];
}

let current: RunningStack | undefined;

async function startStack(sftpPort: number): Promise<RunningStack> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/support/stack-process.ts', '--data-dir', dataDir, '--sftp-port', String(sftpPort), '--sftp-password', sftpPassword],
    {
      cwd: REPO_ROOT,
      // Its own process group, so SIGKILL reaches the stack and every stand-in it started, as when a machine dies.
      detached: true,
      // Short leases, so the killed jobs' leases run out within seconds; the margin still covers one slow file or batch
      // on a loaded machine (a live invocation whose lease ran out would be resumed beside itself and lose its lease).
      env: { ...process.env, LONG_JOB_BUDGET_SECONDS: '5', LONG_JOB_LEASE_MARGIN_SECONDS: '25', JOB_RESUMPTION_LIMIT: '3' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the stack did not start in 180 s:\n${output.join('').slice(-4000)}`)), 180_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      output.push(chunk.toString());
      const found = text.split('\n').find((candidate) => candidate.startsWith('STACK '));
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the stack exited (${String(code)}) before it was up:\n${output.join('').slice(-4000)}`));
    });
  });
  const described = JSON.parse(line.slice('STACK '.length)) as Omit<RunningStack, 'child' | 'output'>;
  current = { child, output, ...described };
  return current;
}

/** SIGKILL to the stack's whole process group; resolves once its own process is gone. */
async function killStack(stack: RunningStack): Promise<void> {
  const exited = new Promise<void>((resolve) => stack.child.once('exit', () => resolve()));
  process.kill(-(stack.child.pid as number), 'SIGKILL');
  await exited;
  // DynamoDB Local and s3rver die with the group; give the OS a moment to release their files and ports.
  await new Promise((resolve) => setTimeout(resolve, 500));
  current = undefined;
}

const dependenciesOf = (stack: RunningStack): Dependencies => buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));

async function call(stack: RunningStack, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${stack.apiUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function transferOf(deps: Dependencies, transferId: string): Promise<TransferItem> {
  const item = await deps.table.get(keys.transfer.key('demo', transferId), { consistent: true });
  if (item === undefined) throw new Error(`no transfer ${transferId}`);
  return readTransfer(item);
}

async function migrationOf(deps: Dependencies, reference: string): Promise<MigrationItem> {
  const item = await deps.table.get(keys.migration.key('acme', reference), { consistent: true });
  if (item === undefined) throw new Error(`no migration ${reference}`);
  return readMigration(item);
}

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>, state: () => Promise<string>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms (${await state()})\n${current?.output.join('').slice(-3000) ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every file under a folder, relative to it. */
function filesUnder(folder: string, prefix = ''): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

afterAll(async () => {
  if (current !== undefined) await killStack(current).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('long jobs killed with their stack', () => {
  it('finish by themselves once the stack is started again: each file delivered once, no temporary file, each row imported once', async () => {
    const sftpPort = await freePort();
    let stack = await startStack(sftpPort);
    let deps = dependenciesOf(stack);
    const demo = await signInDemoAccount(stack.apiUrl, 'admin@demo.test');
    const acme = await signInDemoAccount(stack.apiUrl, 'admin@acme.test');

    // A migration of sample rows into acme (its recordings stay out of demo's transfer).
    // One line a row, each ending in its newline; row 1 is the header.
    const lines = [...sampleExportLines({ rows: MIGRATION_ROWS, mediaBytes: 512 })];
    const file = Buffer.from(lines.join(''), 'utf8');
    const created = await call(stack, acme, 'POST', '/acme/migrations', { filename: 'killed.ndjson', size_bytes: file.length });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submission = created.body as unknown as MigrationSubmission;
    const uploaded = await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: file });
    expect(uploaded.status, await uploaded.text()).toBe(200);
    const migrationReference = submission.migration.migration_reference;

    // Recordings of demo, made through the real pipeline, and a transfer configuration to the stack's SFTP stand-in.
    await addDevice(deps, 'demo');
    const recordings: Recording[] = [];
    for (let index = 0; index < RECORDINGS; index += 1) recordings.push(await record(deps, 'demo', 'Call', wav(200_000)));
    const config = await call(stack, demo, 'POST', '/demo/transfer_configs/killed', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call'],
      schedule: '',
      transfer_file_format: 'Uncompressed',
      is_active: true,
      params: { server: stack.sftp.host, port: stack.sftp.port, root_directory: '/killed', username: stack.sftp.username, host_key_fingerprint: stack.sftp.hostKeyFingerprint },
      secured_data: { sftp_password: sftpPassword },
    });
    expect(config.status, JSON.stringify(config.body)).toBe(201);

    expect((await call(stack, acme, 'POST', `/acme/migrations/${migrationReference}/start`)).status).toBe(202);
    const run = await call(stack, demo, 'POST', '/demo/transfer_configs/killed/run');
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const transferId = String(run.body.transfer_id);

    const state = async () => {
      const [transfer, migration] = await Promise.all([transferOf(deps, transferId), migrationOf(deps, migrationReference)]);
      return `transfer ${transfer.transfer_state} ${transfer.files_done ?? 0}/${transfer.files_total ?? '?'} files, migration ${migration.migration_state} row ${migration.checkpoint_row}`;
    };
    // Killed while both are part-way: some files delivered, some rows imported, neither ended.
    await until(
      'both jobs part-way',
      60_000,
      async () => {
        const [transfer, migration] = await Promise.all([transferOf(deps, transferId), migrationOf(deps, migrationReference)]);
        return (transfer.files_done ?? 0) >= 2 && migration.checkpoint_row > 0;
      },
      state,
    );
    const killedAt = Date.now();
    await killStack(stack);

    // Started again: nothing but the stack itself moves the jobs on.
    stack = await startStack(sftpPort);
    const restartedIn = Date.now() - killedAt;
    deps = dependenciesOf(stack);
    const before = await Promise.all([transferOf(deps, transferId), migrationOf(deps, migrationReference)]);
    expect(before[0].transfer_state, 'the kill came before the transfer ended').toBe('InProgress');
    expect(before[0].files_done ?? 0).toBeLessThan(RECORDINGS);
    expect(before[1].migration_state, 'the kill came before the migration ended').toBe('Pending');

    const took = await until(
      'both jobs ended after the restart',
      90_000,
      async () => {
        const [transfer, migration] = await Promise.all([transferOf(deps, transferId), migrationOf(deps, migrationReference)]);
        return !['Pending', 'InProgress'].includes(transfer.transfer_state) && migration.migration_state !== 'Pending';
      },
      state,
    );
    console.log(
      `killed transfer (${before[0].files_done ?? 0}/${RECORDINGS} files) and migration (row ${before[1].checkpoint_row}/${lines.length}): the stack was up again ${restartedIn} ms after the kill, both ended ${took} ms after that`,
    );

    const transfer = await transferOf(deps, transferId);
    expect(transfer).toMatchObject({ transfer_state: 'Succeeded', files_total: RECORDINGS + 2, files_done: RECORDINGS + 2 });
    expect(transfer.files_failed ?? 0).toBe(0);
    // Every recording at the receiver exactly once, under its own name, with the two manifests; nothing temporary, no
    // second copy under an `again-` folder.
    const arrived = filesUnder(join(stack.sftp.root, 'killed', transferId)).sort();
    expect(arrived).toEqual([...recordings.map((recording) => `${recording.reference}.wav`), 'manifest.csv', 'manifest.json'].sort());
    expect(filesUnder(join(stack.sftp.root, 'killed')).filter((name) => name.endsWith('.partial'))).toEqual([]);
    // One transfer of the configuration: no second run carried the recordings again.
    const runs = (await readAll(deps.table, keys.transfer.list('demo'))).map(readTransfer).filter((item) => item.transfer_config_reference === 'killed');
    expect(runs.map((item) => item.transfer_id)).toEqual([transferId]);
    // The stack was resumed, not re-run: one audit record of the transfer per recording.
    for (const recording of recordings) {
      const audit = await deps.table.query({ partition: keys.payload.key('demo', recording.reference).pk, sort: { beginsWith: 'AUDIT#' } });
      expect(audit.items.filter((item) => item.action === 'transfer'), recording.reference).toHaveLength(1);
    }

    const migration = await migrationOf(deps, migrationReference);
    expect(migration.migration_state, migration.error_message).toBe('Migrated');
    expect(migration.checkpoint_row).toBe(lines.length);
    // Results for every row after the header, and the tallies count each result once.
    const results = await readAll(deps.table, keys.migrationResult.list('acme', migrationReference));
    const rows = new Set(results.map((item) => item.row));
    expect(rows.size).toBe(lines.length - 1);
    const tallied = Object.values(migration.tallies).reduce((sum, tally) => sum + tally.count, 0);
    expect(tallied).toBe(results.length);
    // No running-job marker is left: both ended.
    for (const client of ['demo', 'acme']) {
      expect((await deps.table.query({ ...keys.runningJob.listByLease(client) })).items).toEqual([]);
    }
  }, 420_000);
});
