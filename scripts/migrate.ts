import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { demoAccounts } from './local/seed/accounts.ts';
import { signInDemoAccount } from './device/portal-sign-in.ts';

/**
 * `npm run migrate -- <file> --client <client>`: imports a legacy export into the local stack (`npm start`) the way
 * the portal's migrations screen does: sign in (the client's demo admin, through the real code flow), `POST
 * migrations`, PUT the file to the pre-signed URL (streamed from disk, never held in memory), `POST
 * migrations/{ref}/start`, then follow the migration's progress and print its counts and result summaries.
 * Exit code 0 when it ends Migrated, 1 otherwise.
 */
const USAGE = `Usage: npm run migrate -- <file> --client <client> [--as <email>] [--url <base>]
  --client   the tenant to import into (a local demo tenant: demo, acme)
  --as       the portal account that imports (default: the tenant's demo admin)
  --url      the local stack (default http://localhost:3000, or VERITY_URL)`;

/** One tenant's API on a stack, as a signed-in portal user calls it. */
export interface MigrationApi {
  baseUrl: string;
  client: string;
  token: string;
}

/** A failed call: the API's status and its own message (`path: message` lines). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
}

/** The API's answer as JSON; a 4xx or 5xx throws with the API's own message. */
export async function callApi<T>(api: MigrationApi, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.baseUrl}/api/v1/${api.client}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new ApiError(`${method} ${path} answered ${response.status}:\n${answer.message ?? ''}`);
  return answer as T;
}

/** PUTs the file to the pre-signed URL as a stream with its length (S3 wants the length up front). */
export function uploadFile(url: string, headers: Record<string, string>, path: string, length: number): Promise<void> {
  return new Promise((resolveUpload, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const put = send(target, { method: 'PUT', headers: { ...headers, 'content-length': String(length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== undefined && response.statusCode < 300) resolveUpload();
        else reject(new Error(`Upload answered ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
      });
    });
    put.on('error', reject);
    createReadStream(path).on('error', reject).pipe(put);
  });
}

/** The file's SHA-256 (hex), read as a stream: export files run to gigabytes. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Submits an export file as the portal does: a new migration declaring the file's size and SHA-256, then the file PUT
 * to its pre-signed URL, which is bound to both (storage refuses a file changed in between).
 */
export async function submitExport(api: MigrationApi, path: string): Promise<LegacyMigration> {
  const size = statSync(path).size;
  const sha256 = await fileSha256(path);
  const submission = await callApi<MigrationSubmission>(api, 'POST', '/migrations', { filename: basename(path), size_bytes: size, sha256 });
  await uploadFile(submission.upload_url, submission.upload_headers, path, size);
  return submission.migration;
}

const percent = (done: number, total: number) => (total === 0 ? '100%' : `${Math.floor((done / total) * 100)}%`);

/** One line of progress: rows read and how much of the file. */
export function progressLine(migration: LegacyMigration): string {
  const progress = migration.progress;
  return progress === undefined ? 'scanning the file' : `${progress.rows_read} rows, ${percent(progress.bytes_read, progress.bytes_total)} of the file`;
}

/** The counts and result summaries of a migration, as lines. */
export function summaryLines(migration: LegacyMigration, client: string): string[] {
  const lines = [`Migration ${migration.migration_reference} (${migration.filename}): ${migration.migration_state}`];
  if (migration.error_message !== undefined) lines.push(`  ${migration.error_message}`);
  const counters = migration.counters;
  for (const entity of ['groups', 'device_users', 'devices', 'payloads']) {
    const total = counters[`${entity}_total`];
    if (total !== undefined) lines.push(`  ${entity.padEnd(13)} ${String(total).padStart(8)} rows, ${counters[`${entity}_new_or_updated`] ?? 0} new or updated`);
  }
  for (const [title, list] of [
    ['Imported', migration.imported],
    ['Warnings', migration.import_warnings],
    ['Errors', migration.import_errors],
  ] as const) {
    if (list.length === 0) continue;
    lines.push(`  ${title}:`);
    for (const entry of list) {
      const example = entry.message === undefined ? '' : `  e.g. ${entry.reference ?? ''} ${entry.message.slice(0, 120)}`;
      lines.push(`    ${entry.type.padEnd(36)} ${String(entry.count ?? 0).padStart(8)}${example}`);
    }
  }
  if (migration.import_errors.length > 0) lines.push(`  Every error row: GET /api/v1/${client}/migrations/${migration.migration_reference}/results?kind=error`);
  return lines;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      client: { type: 'string' },
      as: { type: 'string' },
      url: { type: 'string', default: process.env.VERITY_URL ?? 'http://localhost:3000' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const file = positionals[0];
  if (file === undefined || values.client === undefined) fail(USAGE);
  const client = values.client;
  const baseUrl = values.url.replace(/\/+$/, '');
  try {
    if (!statSync(file).isFile()) fail(`${file} is not a file`);
  } catch {
    fail(`Cannot read ${file}`);
  }
  const email = values.as ?? demoAccounts().find((account) => account.client === client && account.groups.includes('admin'))?.email;
  if (email === undefined) fail(`No demo admin for client ${client}: name the account with --as <email>`);

  try {
    const api: MigrationApi = { baseUrl, client, token: await signInDemoAccount(baseUrl, email) };
    const submitted = await submitExport(api, file);
    const reference = submitted.migration_reference;
    console.log(`Migration ${reference}: ${basename(file)} uploaded; importing…`);
    await callApi<LegacyMigration>(api, 'POST', `/migrations/${reference}/start`);
    let migration: LegacyMigration;
    let shown = '';
    for (;;) {
      migration = await callApi<LegacyMigration>(api, 'GET', `/migrations/${reference}`);
      const line = progressLine(migration);
      if (line !== shown) console.log(`  ${line}`);
      shown = line;
      if (migration.migration_state !== 'Pending') break;
      await new Promise((wait) => setTimeout(wait, 1000));
    }
    console.log(`\n${summaryLines(migration, client).join('\n')}`);
    process.exitCode = migration.migration_state === 'Migrated' ? 0 : 1;
  } catch (error) {
    // fetch wraps the socket's error (an AggregateError when both IPv4 and IPv6 were tried).
    const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
    const code = cause?.code ?? cause?.errors?.[0]?.code ?? (error as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH') {
      fail(`Nothing answers at ${baseUrl}: start the local stack (npm start) first`);
    }
    fail(error instanceof Error ? error.message : String(error));
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main(process.argv.slice(2));
