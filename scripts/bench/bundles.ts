import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';
import { formatTable } from './measure.ts';

/**
 * Each Lambda's bundle size and module init, against a bare handler that only imports the DynamoDB document client,
 * all built in one run with the CDK's own esbuild options (lib/constructs/lambda-bundling.ts). Init is the time from
 * process start to the handler module imported, in a fresh Node process each time, with and without
 * `--enable-source-maps`; medians of interleaved runs so machine noise hits every function alike.
 * Aims: functions that call only DynamoDB at most 1.5x the bare handler; every function at most 2x.
 */
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 15);
/** With BENCH_TOP_MODULES=n, each bundle's n heaviest packages (or source folders) are printed from esbuild's metafile. */
const TOP_MODULES = Number(process.env.BENCH_TOP_MODULES ?? 0);

const BARE_HANDLER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => documents.send(new GetCommand({ TableName: 'bench', Key: { pk: 'x', sk: 'y' } }));
`;

/** Values the handlers' config reads at module load; none is used, as no request is made. */
const INIT_ENV = {
  AWS_REGION: 'eu-west-2',
  TABLE_NAME: 'bench',
  RAW_BUCKET: 'bench-raw',
  PROCESSED_BUCKET: 'bench-processed',
  KMS_KEY_ID: 'alias/bench',
  CURSOR_SECRET: 'bench-cursor-secret-bench-cursor-secret',
  LOG_LEVEL: 'error',
};

export interface BundleRow {
  name: string;
  bytes: number;
  /** Minified bytes by npm package (or the repository's top two folders), heaviest first. */
  weights: [string, number][];
  initMs: number;
  initWithMapsMs: number;
}

function handlerEntries(): { name: string; entry: string }[] {
  const folders = readdirSync(join(REPO_ROOT, 'lambdas')).filter((folder) => existsSync(join(REPO_ROOT, 'lambdas', folder, 'handler.ts')));
  return folders.map((folder) => ({ name: folder, entry: join(REPO_ROOT, 'lambdas', folder, 'handler.ts') }));
}

/** A handler module's path, or the bare handler's source (resolved from the repository, like the others). */
type Source = { entry: string } | { contents: string };

/** A bundle input's weight bucket: its npm package, or for the repository's own code its first two folders. */
function ownerOf(input: string): string {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return packageName ? packageName[1]! : input.split('/').slice(0, 2).join('/');
}

function weightsOf(metafile: Metafile): [string, number][] {
  const byOwner = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      byOwner.set(ownerOf(input), (byOwner.get(ownerOf(input)) ?? 0) + bytesInOutput);
    }
  }
  return [...byOwner].sort((a, b) => b[1] - a[1]);
}

async function bundle(source: Source, outfile: string): Promise<{ bytes: number; weights: [string, number][] }> {
  const result = await build({
    ...('entry' in source ? { entryPoints: [source.entry] } : { stdin: { contents: source.contents, resolveDir: REPO_ROOT, loader: 'js' as const } }),
    outfile,
    bundle: true,
    platform: LAMBDA_BUNDLING.platform,
    format: LAMBDA_BUNDLING.format,
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    banner: { js: LAMBDA_BUNDLING.banner },
    minify: LAMBDA_BUNDLING.minify,
    sourcemap: LAMBDA_BUNDLING.sourceMap ? 'external' : false,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    logLevel: 'error',
    metafile: true,
  });
  return { bytes: statSync(outfile).size, weights: weightsOf(result.metafile) };
}

/** Milliseconds from process start until the module is imported, in a fresh process. */
function initOnce(file: string, withMaps: boolean): number {
  const probe = `const m = await import(${JSON.stringify(file)}); if (typeof m.handler !== 'function') process.exit(3); console.log(performance.now());`;
  const result = spawnSync(process.execPath, [...(withMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', probe], {
    env: { ...process.env, ...INIT_ENV },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${file} did not load: ${result.stderr.slice(0, 400)}`);
  return Number(result.stdout.trim());
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureBundles(): Promise<{ bare: BundleRow; functions: BundleRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'verity-bundles-'));
  try {
    const targets: ({ name: string } & Source)[] = [{ name: 'bare DynamoDB handler', contents: BARE_HANDLER }, ...handlerEntries()];
    const built = [];
    for (const target of targets) {
      const outfile = join(dir, `${target.name.replace(/\W+/g, '-')}.mjs`);
      built.push({ name: target.name, outfile, ...(await bundle(target, outfile)) });
    }
    const samples = new Map(built.map((item) => [item.name, { plain: [] as number[], maps: [] as number[] }]));
    for (let run = 0; run < INIT_RUNS; run += 1) {
      for (const item of built) {
        samples.get(item.name)!.plain.push(initOnce(item.outfile, false));
        samples.get(item.name)!.maps.push(initOnce(item.outfile, true));
      }
    }
    const rows = built.map((item) => ({
      name: item.name,
      bytes: item.bytes,
      weights: item.weights,
      initMs: median(samples.get(item.name)!.plain),
      initWithMapsMs: median(samples.get(item.name)!.maps),
    }));
    return { bare: rows[0]!, functions: rows.slice(1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatBundles({ bare, functions }: { bare: BundleRow; functions: BundleRow[] }): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const rows = [bare, ...functions].map((row) => [
    row.name,
    kb(row.bytes),
    (row.bytes / bare.bytes).toFixed(2),
    `${row.initMs.toFixed(0)} ms`,
    (row.initMs / bare.initMs).toFixed(2),
    `${row.initWithMapsMs.toFixed(0)} ms`,
    (row.initWithMapsMs / bare.initWithMapsMs).toFixed(2),
  ]);
  const header = ['function', 'bundle', 'x bare', 'init', 'x bare', 'init + source maps', 'x bare'];
  const heaviest = TOP_MODULES > 0 ? `\n${[bare, ...functions].map((row) => `${row.name}: ${row.weights.slice(0, TOP_MODULES).map(([owner, bytes]) => `${owner} ${kb(bytes)}`).join(', ')}`).join('\n')}` : '';
  return `${formatTable(header, rows)}${heaviest}\n(module init: medians of ${INIT_RUNS} fresh processes each, interleaved; aim ≤ 1.5x for DynamoDB-only functions, ≤ 2x for all)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Lambda bundles: size and module init against a bare DynamoDB handler…');
  console.log(formatBundles(await measureBundles()));
}
