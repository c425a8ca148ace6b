import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../scripts/local/s3.ts';
import { bundleFilesOf, esbuildOptionsLikeLambda, LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';

/**
 * Every function's bundle, built with the CDK's own esbuild options, must load as the Lambda runtime loads it: an ES
 * module in a fresh Node process, where CommonJS names (`require`, `__dirname`, `__filename`) exist only if the
 * banner defines them. The bundle is split: `index.mjs` and the chunks its `import()`s read on first call, beside it.
 * A bundle or chunk that throws here would fail a cold start, or the first call of a port, in AWS.
 */
const outdir = mkdtempSync(join(tmpdir(), 'verity-bundles-load-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const functions = readdirSync(join(REPO_ROOT, 'lambdas')).filter((folder) => existsSync(join(REPO_ROOT, 'lambdas', folder, 'handler.ts')));
const ENTRY_FILE = `${LAMBDA_BUNDLING.entryName}${LAMBDA_BUNDLING.extension}`;

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

interface BuiltBundle {
  dir: string;
  metafile: Metafile;
}

/** Each function built once, as the CDK builds it, into a folder of its own. */
const builtByFunction = new Map<string, Promise<BuiltBundle>>();
function built(name: string): Promise<BuiltBundle> {
  const known = builtByFunction.get(name) ?? buildFunction(name);
  builtByFunction.set(name, known);
  return known;
}

async function buildFunction(name: string): Promise<BuiltBundle> {
  const dir = join(outdir, name);
  const result = await build({ ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')), entryPoints: [join(REPO_ROOT, 'lambdas', name, 'handler.ts')], outdir: dir, metafile: true });
  return { dir, metafile: result.metafile };
}

/** The JavaScript files of a bundle (metafile output paths are relative to the repository root). */
const codeOutputs = (metafile: Metafile) => Object.entries(metafile.outputs).filter(([file]) => file.endsWith(LAMBDA_BUNDLING.extension));

/** The entry and the chunks it imports statically: what a cold start reads, before any call. */
const loadedAtStart = (metafile: Metafile) => new Set(bundleFilesOf(metafile).atStart);

/** The modules with code in the given outputs (esbuild reads every module a public module re-exports, keeps only those in use). */
function inputsOf(metafile: Metafile, outputs: (file: string) => boolean): string[] {
  const inputs = new Set<string>();
  for (const [file, output] of codeOutputs(metafile)) {
    if (!outputs(file)) continue;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (bytesInOutput > 0) inputs.add(input);
  }
  return [...inputs];
}

/** Every module a function's bundle can run, in its entry or any chunk live code imports. */
async function bundleInputs(name: string): Promise<string[]> {
  const { metafile } = await built(name);
  const { atStart, onFirstCall } = bundleFilesOf(metafile);
  return inputsOf(metafile, (file) => atStart.includes(file) || onFirstCall.includes(file));
}

/** Imports the files in order in a fresh Node process; the probe prints the type of the first file's `handler`. */
function loadInFreshProcess(files: string[], env: Record<string, string> = MODULE_LOAD_ENV) {
  const probe = join(outdir, `probe-${basename(files[0]!)}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    probe,
    `const [first, ...rest] = ${JSON.stringify(files)};\nconst loaded = await import(first);\nfor (const file of rest) await import(file);\nprocess.stdout.write(typeof loaded.handler);\n`,
  );
  return spawnSync(process.execPath, [probe], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', cwd: tmpdir() });
}

describe('function bundles', () => {
  it('finds the functions', () => {
    expect(functions).toEqual(expect.arrayContaining(['jobs', 'transfer-jobs', 'devices', 'transfers', 'migrations']));
  });

  it.each(functions)('%s loads as an ES module, exports a handler, and every chunk beside it loads', async (name) => {
    const { dir, metafile } = await built(name);
    const chunks = readdirSync(dir).filter((file) => file.endsWith(LAMBDA_BUNDLING.extension) && file !== ENTRY_FILE);
    expect(chunks.length).toBe(codeOutputs(metafile).length - 1);
    const run = loadInFreshProcess([join(dir, ENTRY_FILE), ...chunks.map((chunk) => join(dir, chunk))]);
    // The error's own line (a minified bundle's source line would fill the screen).
    expect(run.stderr.split('\n').find((line) => /^\w*Error\b/.test(line))).toBeUndefined();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('function');
  });
});

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

  it('reads the PGP key check only when a transfers API call first checks a key, not at its start', async () => {
    const { metafile } = await built('transfers');
    const start = loadedAtStart(metafile);
    expect(packagesOf(inputsOf(metafile, (file) => start.has(file))).has('openpgp')).toBe(false);
  }, 60_000);
});

describe('the S3 and KMS clients loaded on first use', () => {
  const S3_OR_KMS_CLIENT = /node_modules\/@aws-sdk\/client-(s3|kms)\//;

  // Their adapters load on the first call of the port (lambdas/core/adapters/wiring/loaded-on-first-call.ts); through
  // the packages' barrels esbuild would keep every command, paginator and waiter of a lazily loaded client. The bundles
  // resolve the clients to lambdas/core/adapters/aws/sdk-entries/ (lib/constructs/lambda-bundling.ts), which keep only
  // the commands sent.
  it('bundles only the commands the functions send, in every function that calls S3 or KMS', async () => {
    const barrelOnly = /node_modules\/@aws-sdk\/client-(s3|kms)\/dist-es\/(index\.js|S3\.js|KMS\.js|waiters\/|pagination\/)/;
    const holding: string[] = [];
    for (const name of functions) {
      const inputs = await bundleInputs(name);
      if (inputs.some((input) => barrelOnly.test(input))) holding.push(name);
      // The entry module only re-exports, so it leaves no code of its own: esbuild's read of it is the proof.
      if (name === 'payloads') expect(Object.keys((await built(name)).metafile.inputs)).toContain('lambdas/core/adapters/aws/sdk-entries/client-s3.js');
    }
    expect(holding).toEqual([]);
  }, 180_000);

  // With code splitting the clients sit in chunks beside the entry, read on the first call of their port; a static
  // import of an adapter or client (or a bundle built as one file) would put them back into every cold start.
  it('keeps the S3 and KMS clients out of what every function reads at its start', async () => {
    const atStart: string[] = [];
    const lazily: string[] = [];
    for (const name of functions) {
      const { metafile } = await built(name);
      const start = loadedAtStart(metafile);
      if (inputsOf(metafile, (file) => start.has(file)).some((input) => S3_OR_KMS_CLIENT.test(input))) atStart.push(name);
      if (inputsOf(metafile, (file) => !start.has(file)).some((input) => S3_OR_KMS_CLIENT.test(input))) lazily.push(name);
    }
    // Only the transfer jobs function, a background function no one waits on: its S3 delivery destination and the
    // customer's bucket build their own clients (lambdas/transfers/delivery/s3-destination.ts).
    expect(atStart).toEqual(['transfer-jobs']);
    expect(lazily).toEqual(expect.arrayContaining(['audit', 'payloads', 'device-api', 'supervision', 'cases', 'jobs']));
  }, 180_000);
});

describe('a lazily loaded adapter in a split bundle', () => {
  // A bundle built like a function's, whose handler stores and reads an object through the blob store port: the S3
  // adapter and client come from chunks on that first call, against s3rver (the local stand-in for S3).
  it('loads its chunk on the first call and answers from S3', async () => {
    const s3 = await startS3({ directory: join(outdir, 's3'), buckets: ['first-call-raw', 'first-call-processed'] });
    try {
      const dir = join(outdir, 'first-call');
      mkdirSync(dir, { recursive: true });
      const result = await build({
        ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')),
        stdin: {
          resolveDir: REPO_ROOT,
          sourcefile: 'first-call-handler.ts',
          loader: 'ts',
          contents: `
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { loadConfig } from '#core/config.ts';
import { composeDependencies } from '#core/function-dependencies.ts';
const deps = composeDependencies(loadConfig(process.env), [blobStoreAdapter]);
export async function handler() {
  await deps.blobs.put('processed', 'tenant-a/first-call', new TextEncoder().encode('stored through a chunk'), { contentType: 'text/plain' });
  const object = await deps.blobs.get('processed', 'tenant-a/first-call');
  let text = '';
  for await (const part of object.body) text += part;
  return { text, contentType: object.contentType, missing: (await deps.blobs.head('raw', 'tenant-a/none')) === undefined };
}`,
        },
        outdir: dir,
        metafile: true,
      });
      const start = loadedAtStart(result.metafile);
      expect(inputsOf(result.metafile, (file) => start.has(file)).some((input) => input.includes('@aws-sdk/client-s3'))).toBe(false);
      expect(inputsOf(result.metafile, (file) => !start.has(file))).toContain('lambdas/core/adapters/aws/s3-blob-store.ts');

      const caller = join(dir, 'call.mjs');
      writeFileSync(caller, `const { handler } = await import(${JSON.stringify(join(dir, ENTRY_FILE))});\nprocess.stdout.write(JSON.stringify(await handler()));\n`);
      const run = spawnSync(process.execPath, [caller], {
        env: {
          PATH: process.env.PATH,
          ...MODULE_LOAD_ENV,
          VERITY_MODE: 'aws',
          OIDC_ISSUER: 'http://127.0.0.1:1/oidc',
          OIDC_AUDIENCES: 'portal',
          RAW_BUCKET: 'first-call-raw',
          PROCESSED_BUCKET: 'first-call-processed',
          S3_ENDPOINT: s3.endpoint,
        },
        encoding: 'utf8',
        cwd: tmpdir(),
      });
      expect(run.stderr.split('\n').find((line) => /^\w*Error\b/.test(line))).toBeUndefined();
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ text: 'stored through a chunk', contentType: 'text/plain', missing: true });
    } finally {
      await s3.stop();
    }
  }, 120_000);
});
