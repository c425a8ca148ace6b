import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import { startLocalStack } from '../local/stack.ts';
import { callApi, submitExport, summaryLines, type MigrationApi } from '../migrate.ts';
import { main as writeSample } from '../migration/sample.ts';
import { formatTable } from './measure.ts';

const run = promisify(execFile);

/** Rows of the export by default: the size a firm's history reaches (`--rows N` for a quick run). */
export const DEFAULT_ROWS = 100_000;
/** One invocation's time budget in the bench: short, so the run also goes through checkpoints and continuations. */
const BUDGET_MS = 60_000;
const AIM_MIB = 256;
/**
 * V8's old space in each child, capped as a function given the aim's memory would have it: uncapped, V8 on a machine
 * with gigabytes free lets its heap grow long before it collects (the import peaked at 292 MiB at 100,000 rows; with
 * the old space capped at 80 MiB it imported 30,000 rows at a 193 MiB peak and no slower). A child whose live memory
 * grew with the file would fail here rather than pass on a large machine.
 */
const CHILD_OLD_SPACE_MIB = 128;

interface ChildResult {
  rows: number;
  seconds: number;
  maxRssMiB: number;
  invocations: number;
  state?: string;
  /** CPU seconds (user and system) of the child. */
  cpuSeconds: number;
  /** With `--profile`: where the import's time went (./migration-profile.ts). */
  profile?: string;
}

async function runChild(args: string[], env: Record<string, string>): Promise<ChildResult> {
  const child = fileURLToPath(new URL('./migration-child.ts', import.meta.url));
  // process.execArgv carries tsx's loader flags, so the child resolves `#core/*` and .ts imports as this process does.
  const { stdout } = await run(process.execPath, [...process.execArgv, `--max-old-space-size=${CHILD_OLD_SPACE_MIB}`, child, ...args], {
    env: { ...process.env, ...env },
    timeout: 3 * 60 * 60 * 1000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as ChildResult;
}

/** `--results-only`: leave out the whole import (the row importer's writes are what take long at 100,000 rows). */
export const migrationResultsOnly = (args: readonly string[]): boolean => args.includes('--results-only');

/**
 * CPU seconds so far of the local stack's processes, by name: this process (the API and the Object Lock proxy in front
 * of s3rver) and its children (DynamoDB Local, s3rver, the SFTP stand-in), read from /proc. Empty where there is no
 * /proc: the numbers are then the job's alone.
 */
function stackCpuSeconds(): Record<string, number> {
  const own = process.cpuUsage();
  const seconds: Record<string, number> = { 'api+s3 proxy': (own.user + own.system) / 1e6 };
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return seconds;
  }
  const ticks = 100;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[1] !== String(process.pid)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const name = command.includes('DynamoDBLocal') ? 'dynamodb' : command.includes('s3rver') ? 's3rver' : undefined;
      if (name === undefined) continue;
      seconds[name] = (seconds[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // A process that ended meanwhile.
    }
  }
  return seconds;
}

const cpuSpent = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([name, seconds]) => [name, seconds - (before[name] ?? 0)]));

/** `--profile`: the import's port calls timed per kind of row (slower: every call is wrapped). */
export const migrationProfile = (args: readonly string[]): boolean => args.includes('--profile');

/** `--rows N` of the bench's arguments, or the default. */
export function migrationRows(args: readonly string[]): number {
  const at = args.indexOf('--rows');
  if (at === -1) return DEFAULT_ROWS;
  const rows = Number(args[at + 1]);
  if (!Number.isSafeInteger(rows) || rows < 4) throw new Error('--rows must be a whole number of at least 4');
  return rows;
}

/**
 * `npm run bench -- migration [--rows N]`: a sample export (scripts/migration/sample.ts: groups, users, devices, then
 * recordings with 1 KiB media) submitted to a fresh loopback stack as the portal does (pre-signed upload), then
 * imported by the `migration-import` job in a child process, invocation after invocation as Lambda would chain them.
 * Reported: rows per second against reading the same file through the format reader alone (the baseline, also in a
 * child), the job with a row importer that writes nothing (what the job itself costs: streaming, scan, results,
 * checkpoints) and the whole import, each with its peak RSS, whose aim is under 256 MiB whatever the file's size, and
 * the CPU each run cost per row in the job and in the stand-ins (DynamoDB Local, s3rver, this process's API and Object
 * Lock proxy), which share the machine's cores. `--results-only` leaves the whole import out; `--profile` adds where
 * the import's time went, per port call and kind of row (./migration-profile.ts).
 */
export async function benchMigration(rows: number, options: { resultsOnly?: boolean; profile?: boolean } = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'verity-bench-migration-'));
  try {
    const file = join(dir, 'legacy-export.ndjson');
    await writeSample([file, '--rows', String(rows)]);
    const bytes = statSync(file).size;
    const parse = await runChild(['parse', file], {});

    const stack = await startLocalStack({ dataDir: join(dir, 'stack'), port: 0, quiet: true, inMemoryDynamo: true });
    try {
      const api: MigrationApi = { baseUrl: stack.apiUrl, client: 'demo', token: await signInDemoAccount(stack.apiUrl, 'admin@demo.test') };
      const env = stack.env as unknown as Record<string, string>;
      const measure = async (mode: 'results-only' | 'import') => {
        const submitted = await submitExport(api, file);
        const cpuBefore = stackCpuSeconds();
        const profiled: Record<string, string> = mode === 'import' && options.profile === true ? { MIGRATION_PROFILE: '1' } : {};
        return runChild([mode, api.client, submitted.migration_reference, String(BUDGET_MS)], { ...env, ...profiled }).then(async (result) => ({
          result,
          stackCpu: cpuSpent(cpuBefore, stackCpuSeconds()),
          migration: await callApi<LegacyMigration>(api, 'GET', `/migrations/${submitted.migration_reference}`),
        }));
      };
      const resultsOnly = await measure('results-only');
      const imported = options.resultsOnly === true ? undefined : await measure('import');
      const rate = (result: ChildResult) => rows / result.seconds;
      const row = (label: string, result: ChildResult, aim: boolean) => [
        aim ? `${label} (${result.invocations} invocation${result.invocations === 1 ? '' : 's'})` : label,
        rate(result).toFixed(0),
        (rate(result) / rate(parse)).toFixed(3),
        `${result.maxRssMiB.toFixed(0)} MiB`,
        aim ? (result.maxRssMiB < AIM_MIB ? 'ok' : `OVER ${AIM_MIB} MiB`) : '',
      ];
      const table = formatTable(
        ['migration', 'rows/s', 'ratio to reading', 'peak RSS (child)', `aim < ${AIM_MIB} MiB`],
        [
          row('Reading the export only (baseline)', parse, false),
          row('Job, results only (no row importer writes)', resultsOnly.result, true),
          ...(imported === undefined ? [] : [row('Import job', imported.result, true)]),
        ],
      );
      const took = `job with results only ${resultsOnly.result.seconds.toFixed(0)} s${imported === undefined ? '' : `, import ${imported.result.seconds.toFixed(0)} s`}`;
      const shown = imported?.migration ?? resultsOnly.migration;
      const cpu = (label: string, measured: { result: ChildResult; stackCpu: Record<string, number> }) =>
        `${label}: ${Object.entries({ job: measured.result.cpuSeconds, ...measured.stackCpu })
          .map(([name, seconds]) => `${name} ${((seconds * 1000) / rows).toFixed(2)}`)
          .join(', ')}`;
      const cpuLines = ['CPU ms per row, by process:', cpu('  results only', resultsOnly), ...(imported === undefined ? [] : [cpu('  import', imported)])].join('\n');
      const profile = imported?.result.profile === undefined ? '' : `\n\nWhere the import's time went:\n${imported.result.profile}`;
      return `${table}\n(${rows} rows, ${(bytes / 1024 / 1024).toFixed(1)} MiB; ${took}; V8 old space capped at ${CHILD_OLD_SPACE_MIB} MiB)\n${cpuLines}\n\n${summaryLines(shown, api.client).join('\n')}${profile}`;
    } finally {
      await stack.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
