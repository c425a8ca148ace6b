import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptionsLikeLambda } from '../../lib/constructs/lambda-bundling.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';

/**
 * Every function's bundle, built with the CDK's own esbuild options, must load as the Lambda runtime loads it: an ES
 * module in a fresh Node process, where CommonJS names (`require`, `__dirname`, `__filename`) exist only if the
 * banner defines them. A bundle that throws here would fail every cold start in AWS.
 */
const outdir = mkdtempSync(join(tmpdir(), 'verity-bundles-load-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const functions = readdirSync(join(REPO_ROOT, 'lambdas')).filter((folder) => existsSync(join(REPO_ROOT, 'lambdas', folder, 'handler.ts')));

/** What the handlers' config reads at module load; no request is made, so none is reached. */
const MODULE_LOAD_ENV = {
  AWS_REGION: 'eu-west-2',
  TABLE_NAME: 'bundle-load',
  RAW_BUCKET: 'bundle-load-raw',
  PROCESSED_BUCKET: 'bundle-load-processed',
  KMS_KEY_ID: 'alias/bundle-load',
  CURSOR_SECRET: 'bundle-load-cursor-secret-of-enough-length',
  LOG_LEVEL: 'error',
};

describe('function bundles', () => {
  it('finds the functions', () => {
    expect(functions).toEqual(expect.arrayContaining(['jobs', 'transfer-jobs', 'devices', 'transfers', 'migrations']));
  });

  it.each(functions)('%s loads as an ES module and exports a handler', async (name) => {
    const bundle = join(outdir, `${name}.mjs`);
    await build({ ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')), entryPoints: [join(REPO_ROOT, 'lambdas', name, 'handler.ts')], outfile: bundle });
    const probe = join(outdir, `${name}.probe.mjs`);
    writeFileSync(probe, `const loaded = await import(${JSON.stringify(bundle)});\nprocess.stdout.write(typeof loaded.handler);\n`);
    const run = spawnSync(process.execPath, [probe], { env: { PATH: process.env.PATH, ...MODULE_LOAD_ENV }, encoding: 'utf8' });
    // The error's own line (a minified bundle's source line would fill the screen).
    expect(run.stderr.split('\n').find((line) => /^\w*Error\b/.test(line))).toBeUndefined();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('function');
  });
});

/** The npm packages and repository folders a function's bundle holds, from esbuild's metafile (built once per function). */
const inputsByFunction = new Map<string, Promise<string[]>>();
function bundleInputs(name: string): Promise<string[]> {
  const known = inputsByFunction.get(name) ?? metafileInputs(name);
  inputsByFunction.set(name, known);
  return known;
}

async function metafileInputs(name: string): Promise<string[]> {
  const result = await build({
    ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')),
    entryPoints: [join(REPO_ROOT, 'lambdas', name, 'handler.ts')],
    outfile: join(outdir, `${name}.inputs.mjs`),
    write: false,
    metafile: true,
  });
  // The modules with code in the bundle: esbuild reads every module a public module re-exports (metafile.inputs) but
  // keeps only those in use, our own source being free of side effects (package.json).
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined);
  return Object.entries(output?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input);
}

/** Transfer packaging and delivery: PGP, SFTP (ssh2 and its crypto), zip. */
const TRANSFER_PACKAGES = ['openpgp', 'ssh2', '@zip.js/zip.js', 'tweetnacl', 'bcrypt-pbkdf', 'asn1'];
const packagesOf = (inputs: string[]) => new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));

describe('the transfer job in a function of its own', () => {
  it('keeps transfer packaging and delivery out of the jobs bundle', async () => {
    const inputs = await bundleInputs('jobs');
    const packages = packagesOf(inputs);
    for (const name of TRANSFER_PACKAGES) expect(packages.has(name), name).toBe(false);
    expect(inputs.filter((input) => /^lambdas\/transfers\/(job|packaging|delivery)\//.test(input))).toEqual([]);
  }, 60_000);

  it('bundles them in the transfer jobs function, with none of the other jobs', async () => {
    const inputs = await bundleInputs('transfer-jobs');
    const packages = packagesOf(inputs);
    for (const name of ['openpgp', 'ssh2', '@zip.js/zip.js']) expect(packages.has(name), name).toBe(true);
    expect(inputs).toContain('lambdas/transfers/job/transfer-job.ts');
    // The jobs function's table and its jobs' entries; shared domain modules (a disposal marker, a hasher) may come along.
    const otherJobs = ['lambdas/jobs/jobs.ts', 'lambdas/jobs/payload-processing.ts', 'lambdas/jobs/audit-sequencer.ts', 'lambdas/account-data/retention/retention-job.ts', 'lambdas/migrations/job/index.ts'];
    expect(inputs.filter((input) => otherJobs.includes(input))).toEqual([]);
  }, 60_000);
});

describe('libraries only where they are used', () => {
  // croner (33 KB) checks a transfer configuration's schedule; a record of a run, which retention reads in every
  // function, must not bring it along (shared/contract/entities/transfer-runs.ts).
  it('bundles the schedule parser only in the functions that read transfer configurations', async () => {
    const holding: string[] = [];
    for (const name of functions) if (packagesOf(await bundleInputs(name)).has('croner')) holding.push(name);
    expect(holding.sort()).toEqual(['transfer-jobs', 'transfers']);
  }, 180_000);

  it('bundles PGP and SFTP only in the transfer functions', async () => {
    const holding: string[] = [];
    for (const name of functions) if (packagesOf(await bundleInputs(name)).has('openpgp')) holding.push(name);
    expect(holding.sort()).toEqual(['transfer-jobs', 'transfers']);
  }, 180_000);
});

describe('the S3 and KMS clients loaded on first use', () => {
  // Their adapters load on the first call of the port (lambdas/core/adapters/wiring/loaded-on-first-call.ts); through
  // the packages' barrels esbuild would keep every command, paginator and waiter of a lazily run client. The bundles
  // resolve the clients to lambdas/core/adapters/aws/sdk-entries/ (lib/constructs/lambda-bundling.ts), which keep only
  // the commands sent.
  it('bundles only the commands the functions send, in every function that calls S3 or KMS', async () => {
    const barrelOnly = /node_modules\/@aws-sdk\/client-(s3|kms)\/dist-es\/(index\.js|S3\.js|KMS\.js|waiters\/|pagination\/)/;
    const holding: string[] = [];
    for (const name of functions) {
      const inputs = await bundleInputs(name);
      if (inputs.some((input) => barrelOnly.test(input))) holding.push(name);
      if (name === 'payloads') expect(inputs).toContain('lambdas/core/adapters/aws/sdk-entries/client-s3.js');
    }
    expect(holding).toEqual([]);
  }, 180_000);
});
