import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { writeCheckpoint } from '../../lambdas/audit/trail/checkpoint.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { buildActivityExport } from '../../lambdas/audit/export/export-file.ts';
import { auditSigningPublicKeyPem } from '../../lambdas/audit/export/signing-public-key.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { main } from '../../scripts/audit-verify.ts';
import { verifyExportFile } from '../../scripts/audit/verify-file.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The activity trail as one verifiable file: a period exported from DynamoDB Local, verified by
 * `npm run audit:verify -- --file` and by the exact openssl/sha256sum steps of docs/audit-export.md, both failing
 * after one byte of the file changes. Records live in a tenant of this run, on days of 2001 nothing else uses.
 */
const run = randomUUID().slice(0, 8);
const client = `it-export-${run}`;
let deps: Dependencies;
let folder: string;
let publicKeyPem: string;

const day = (index: number) => `2001-03-${String(index).padStart(2, '0')}T10:00:00.000Z`;
const entry = (index: number) => ({
  user_id: `it-export-${run}`,
  activity_time: day(index),
  action: index % 2 === 0 ? 'roles:Update' : 'roles:List',
  is_allowed: true,
  roles: ['admin'],
  is_client_app: false,
  status_code: 200,
});

const execute = promisify(execFile);

/** The documented steps, exactly as docs/audit-export.md shows them. */
async function documentedSteps(): Promise<string> {
  const doc = await readFile(join(import.meta.dirname, '../../docs/audit-export.md'), 'utf8');
  const match = /<!-- verify-steps:[^\n]*-->\n```sh\n([\s\S]*?)```/.exec(doc);
  if (match?.[1] === undefined) throw new Error('docs/audit-export.md has no verify-steps block');
  return match[1];
}

/** Runs the documented steps in a fresh folder holding the export and the published key. */
async function runDocumentedSteps(archive: Buffer): Promise<{ code: number; output: string }> {
  const where = await mkdtemp(join(folder, 'steps-'));
  await writeFile(join(where, 'export.tar'), archive);
  await writeFile(join(where, 'verity-audit-public-key.pem'), publicKeyPem);
  try {
    const { stdout, stderr } = await execute('bash', ['-e', '-c', await documentedSteps()], { cwd: where });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function verifyScript(archive: Buffer) {
  const file = join(folder, `export-${randomUUID()}.tar`);
  const key = join(folder, 'published.pem');
  await writeFile(file, archive);
  await writeFile(key, publicKeyPem);
  const lines: string[] = [];
  const io = { env: {}, out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const code = await main(['--file', file, '--public-key', key], io);
  return { code, lines };
}

/** The archive with one byte changed at the first occurrence of `text` (its last character bumped). */
function flipped(archive: Buffer, text: string): Buffer {
  const copy = Buffer.from(archive);
  const at = copy.indexOf(text);
  expect(at).toBeGreaterThan(0);
  const last = at + Buffer.byteLength(text) - 1;
  copy[last] = (copy[last] as number) + 1;
  return copy;
}

/** The archive with the byte right after the first occurrence of `text` bumped (a hex digit stays text). */
function flippedAfter(archive: Buffer, text: string): Buffer {
  const copy = Buffer.from(archive);
  const at = copy.indexOf(text);
  expect(at).toBeGreaterThan(0);
  const next = at + Buffer.byteLength(text);
  copy[next] = (copy[next] as number) + 1;
  return copy;
}

let archive: Buffer;

beforeAll(async () => {
  const config = loadConfig({ ...stack().env, LOG_LEVEL: 'error' });
  deps = buildDependencies(config);
  folder = await mkdtemp(join(tmpdir(), 'verity-export-'));
  for (let index = 1; index <= 6; index += 1) await writeActivityRecord(deps, { trail: 'user', client, entry: entry(index) });
  await linkPending(deps, 'user', client);
  expect(await writeCheckpoint(deps, 'user', client, LOCAL_AUDIT_SIGNING_KEY_ID)).toBe(true);
  // A record after the checkpoint, outside the period: not in the file.
  await writeActivityRecord(deps, { trail: 'user', client, entry: entry(7) });
  await linkPending(deps, 'user', client);
  publicKeyPem = (await auditSigningPublicKeyPem(deps)).pem;
  const built = await buildActivityExport(
    { client, trail: 'user', from: day(2), to: day(5) },
    { deps, signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID, publicKeyPem },
  );
  archive = built.archive;
  expect(built.description).toMatchObject({ first_sequence: 2, last_sequence: 6, records: 5, records_in_period: 3, covered_to: 6, unlinked_in_period: 0 });
});

afterAll(() => rm(folder, { recursive: true, force: true }));

describe('an exported activity trail', () => {
  it('verifies with npm run audit:verify -- --file against the published key', async () => {
    const { code, lines } = await verifyScript(archive);
    expect(lines[0]).toBe(
      `The export of the user trail of ${client} from ${day(2)} to ${day(5)} is whole: 5 records (#2 to #6, 3 in the period), 1 signed checkpoints, manifest signed by ${LOCAL_AUDIT_SIGNING_KEY_ID}`,
    );
    expect(code).toBe(0);
  });

  it('fails the script after one byte of a record changes, naming that record', async () => {
    const { code, lines } = await verifyScript(flipped(archive, '"roles:Update'));
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^The export is broken: record #2 \(trail\.jsonl line 1, 2001-03-02T10:00:00\.000Z#[^)]+\): its content does not match the entry hash its link holds/);
  });

  it('fails the script after one byte of a link, the manifest or a checkpoint changes, naming where', async () => {
    const link = await verifyScript(flippedAfter(archive, '"sequence":4,"previous_hash":"'));
    expect(link.code).toBe(1);
    expect(link.lines[0]).toMatch(/^The export is broken: record #4 \(trail\.jsonl line 3, 2001-03-04T10:00:00\.000Z#[^)]+\): its link does not match its hash/);
    const manifest = await verifyScript(flipped(archive, '  trail.jsonl'));
    expect(manifest.lines[0]).toBe('The export is broken: manifest.sha256 is not signed by the audit signing key (the manifest or its signature was changed)');
    const checkpoint = await verifyScript(flipped(archive, '"checkpoint_at":"2'));
    expect(checkpoint.code).toBe(1);
    expect(checkpoint.lines[0]).toMatch(/^The export is broken: checkpoints\.jsonl does not match its SHA-256 in the manifest/);
  });

  it('refuses a file signed by another key than the published one', async () => {
    const other = await mkdtemp(join(folder, 'other-key-'));
    const { createLocalKeyService } = await import('../../lambdas/core/adapters/local/local-key-service.ts');
    const foreign = await createLocalKeyService({ dataDir: other }).signingPublicKeyPem(LOCAL_AUDIT_SIGNING_KEY_ID);
    const file = join(folder, 'foreign.tar');
    await writeFile(file, archive);
    await writeFile(join(folder, 'foreign.pem'), foreign);
    const lines: string[] = [];
    const code = await main(['--file', file, '--public-key', join(folder, 'foreign.pem')], { env: {}, out: (line) => lines.push(line), err: (line) => lines.push(line) });
    expect(code).toBe(1);
    expect(lines[0]).toContain('manifest.sha256 is not signed by the audit signing key');
  });

  it('passes the documented openssl and sha256sum steps, which fail after one byte changes', async () => {
    const whole = await runDocumentedSteps(archive);
    expect(whole.output).toContain('Verified OK');
    expect(whole.output).toMatch(/trail\.jsonl: OK\ncheckpoints\.jsonl: OK\nexport\.json: OK/);
    expect(whole.code).toBe(0);

    const record = await runDocumentedSteps(flipped(archive, '"roles:Update'));
    expect(record.code).not.toBe(0);
    expect(record.output).toContain('trail.jsonl: FAILED');

    const manifest = await runDocumentedSteps(flipped(archive, '  trail.jsonl'));
    expect(manifest.code).not.toBe(0);
    expect(manifest.output).toContain('Verification failure');
  });
});

describe('POST activities/exports and GET activities/exports/{export_id}', () => {
  let demoToken: string;
  let acmeToken: string;
  beforeAll(async () => {
    [demoToken, acmeToken] = (await Promise.all([signIn('admin@demo.test'), signIn('admin@acme.test')])).map((tokens) => tokens.id_token) as [string, string];
  });

  const post = (body: unknown, token = demoToken) =>
    api('/api/v1/demo/activities/exports', { method: 'POST', headers: bearer(token, { 'content-type': 'application/json' }), body: JSON.stringify(body) });

  it('refuses a reversed period, one over a year, an unknown trail and stray fields with a 400 line per problem', async () => {
    const cases: [unknown, string[]][] = [
      [{ trail: 'user', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, ['to: must be after from']],
      [{ trail: 'user', from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, ['to: must be at most 366 days after from']],
      [{ trail: 'phones', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }, ['trail:']],
      [{ trail: 'user', from: 'yesterday', to: '2026-01-02T00:00:00Z', extra: 1 }, ['from: must be an ISO 8601 time in UTC', 'extra']],
    ];
    for (const [body, lines] of cases) {
      const response = await post(body);
      const text = await response.text();
      expect(response.status, text).toBe(400);
      for (const line of lines) expect(text).toContain(line);
    }
  });

  it('exports the last hour of the demo trail as a file that verifies against the published key; another tenant cannot read it', { timeout: 120_000 }, async () => {
    const now = Date.now();
    const started = await post({ trail: 'user', from: new Date(now - 60 * 60_000).toISOString(), to: new Date(now + 60_000).toISOString() });
    expect(started.status).toBe(200);
    const { export_id: exportId, state } = (await started.json()) as { export_id: string; state: string };
    expect(state).toBe('Running');
    let current: { state: string; download_url?: string; sha256?: string; records_written: number } = { state: 'Running', records_written: 0 };
    for (let attempt = 0; attempt < 60 && current.state === 'Running'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      current = (await (await api(`/api/v1/demo/activities/exports/${exportId}`, { headers: bearer(demoToken) })).json()) as typeof current;
    }
    expect(current.state).toBe('Completed');
    const file = Buffer.from(await (await fetch(current.download_url as string)).arrayBuffer());
    expect(createHash('sha256').update(file).digest('hex')).toBe(current.sha256);
    const key = (await (await api('/api/v1/demo/activities/signing-key', { headers: bearer(demoToken) })).json()) as { pem: string };
    const report = verifyExportFile(file, key.pem);
    expect(report.summary).toMatch(/^The export of the user trail of demo from .* is whole/);
    expect(report.whole).toBe(true);
    expect((await api(`/api/v1/acme/activities/exports/${exportId}`, { headers: bearer(acmeToken) })).status).toBe(404);
  });
});
