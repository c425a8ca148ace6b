import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundleFilesOf, esbuildOptionsLikeLambda, LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';
import { ENDPOINT_GROUPS } from '#shared/contract/endpoint.ts';
import { formatTable, median } from './measure.ts';

/**
 * Each Lambda's bundle size and module init, against a bare handler that only imports the DynamoDB document client,
 * all built in one run with the CDK's own esbuild options (lib/constructs/lambda-bundling.ts).
 *
 * Each bundle is split as the CDK builds it: `index.mjs`, the chunks it imports statically (read at every start), and
 * the chunks its `import()`s read on first call (an adapter's SDK client, the PGP key check). Sizes are printed for
 * both; module init is the time `import()` of the entry takes (read, compile, run its top level, its static chunks
 * included), with the lazily loaded chunks on disk beside it as in Lambda, in a fresh Node process each time. It is also taken with source maps in use: the CDK writes external maps, which carry no
 * `sourceMappingURL` comment, so `--enable-source-maps` alone finds no map; the second column bundles with a linked map
 * and runs with the flag, the cost mapped stack traces would have (docs/decisions.md, "Lambda bundles"). On a loaded machine the noise is large and drifts, so each
 * sample of a function is paired with a sample of the bare handler taken right beside it (which goes first
 * alternates), and the ratio is the median of those paired ratios.
 *
 * Aim: every API function's module init at most 2x the bare handler's (what users wait on at a cold start). The
 * background functions (jobs, transfer jobs: no one waits on their start) are printed but exempt; size is printed,
 * not judged. What a function calls is read from its bundle: the SDK clients and the OIDC adapter it holds (each
 * function is wired with only the adapters its endpoints use, lambdas/core/composition.ts).
 */
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 11);
/** With BENCH_TOP_MODULES=n, the n heaviest packages (or source folders) each bundle reads at start are printed from esbuild's metafile. */
const TOP_MODULES = Number(process.env.BENCH_TOP_MODULES ?? 0);
const API_INIT_AIM = 2;

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

/** What a bundle calls besides DynamoDB, told by the modules it holds. */
const SERVICES: [string, RegExp][] = [
  ['S3', /node_modules\/@aws-sdk\/client-s3\//],
  ['KMS', /node_modules\/@aws-sdk\/client-kms\//],
  ['Lambda', /^lambdas\/core\/adapters\/aws\/lambda-job-runner\.ts$/],
  ['Scheduler', /node_modules\/@aws-sdk\/client-scheduler\//],
  ['OIDC', /^lambdas\/core\/adapters\/oidc\//],
];

export interface BundleRow {
  name: string;
  /** What a cold start reads: the entry and the chunks it imports statically. */
  bytes: number;
  /** The chunks read only when an `import()` first runs. */
  lazyBytes: number;
  /** Minified bytes read at start, by npm package (or the repository's top two folders), heaviest first. */
  weights: [string, number][];
  /** DynamoDB, then whatever else the bundle holds a client or adapter for. */
  calls: string[];
  initMs: number;
  /** Median of the paired ratios to the bare handler (1 for the bare handler itself). */
  initRatio: number;
  initWithMapsMs: number;
  initWithMapsRatio: number;
}

/** With BENCH_ONLY=payloads,transfers, only those functions are built and timed (each still beside the bare handler). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean);

function handlerEntries(): { name: string; entry: string }[] {
  const folders = readdirSync(join(REPO_ROOT, 'lambdas'))
    .filter((folder) => existsSync(join(REPO_ROOT, 'lambdas', folder, 'handler.ts')))
    .filter((folder) => ONLY === undefined || ONLY.length === 0 || ONLY.includes(folder));
  return folders.map((folder) => ({ name: folder, entry: join(REPO_ROOT, 'lambdas', folder, 'handler.ts') }));
}

/** A handler module's path, or the bare handler's source (resolved from the repository, like the others). */
type Source = ({ entry: string } | { contents: string }) & { oneFile?: boolean };

/**
 * The bare handler bundled into one file, as the functions were before they were split: printed against the split
 * bare handler (the aim's reference), so ratios read before the split can be set beside the ones read after it.
 */
const BARE_ONE_FILE = 'bare DynamoDB handler, one file';

/** A bundle input's weight bucket: its npm package, or for the repository's own code its first two folders. */
function ownerOf(input: string): string {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return packageName ? packageName[1]! : input.split('/').slice(0, 2).join('/');
}

const ENTRY_FILE = `${LAMBDA_BUNDLING.entryName}${LAMBDA_BUNDLING.extension}`;
type Output = Metafile['outputs'][string];

function weightsOf(outputs: Output[]): [string, number][] {
  const byOwner = new Map<string, number>();
  for (const output of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      byOwner.set(ownerOf(input), (byOwner.get(ownerOf(input)) ?? 0) + bytesInOutput);
    }
  }
  return [...byOwner].sort((a, b) => b[1] - a[1]);
}

function callsOf(metafile: Metafile): string[] {
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
  return ['DynamoDB', ...SERVICES.filter(([, pattern]) => inputs.some((input) => pattern.test(input))).map(([service]) => service)];
}

/** Builds a bundle into `outdir` as the CDK does (the maps' mode aside); its entry is `<outdir>/index.mjs`. */
async function bundle(source: Source, outdir: string, sourcemap: 'external' | 'linked' | false): Promise<{ bytes: number; lazyBytes: number; weights: [string, number][]; calls: string[] }> {
  const result = await build({
    ...('entry' in source ? { entryPoints: [source.entry] } : { stdin: { contents: source.contents, resolveDir: REPO_ROOT, loader: 'js' as const } }),
    ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')),
    ...(source.oneFile === true ? { splitting: false } : {}),
    outdir,
    sourcemap,
    metafile: true,
  });
  const files = bundleFilesOf(result.metafile);
  const [start, lazy] = [files.atStart, files.onFirstCall].map((list) => list.map((file) => result.metafile.outputs[file]!));
  const sum = (outputs: Output[]) => outputs.reduce((total, output) => total + output.bytes, 0);
  return { bytes: sum(start!), lazyBytes: sum(lazy!), weights: weightsOf(start!), calls: callsOf(result.metafile) };
}

/** Milliseconds the import of the module takes, in a fresh process. */
function initOnce(file: string, withMaps: boolean): number {
  const probe = `const started = performance.now(); const m = await import(${JSON.stringify(file)}); const took = performance.now() - started; if (typeof m.handler !== 'function') process.exit(3); console.log(took);`;
  const result = spawnSync(process.execPath, [...(withMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', probe], {
    env: { ...process.env, ...INIT_ENV },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${file} did not load: ${result.stderr.slice(0, 400)}`);
  return Number(result.stdout.trim());
}

/** One function's init samples, each beside a sample of the bare handler (which goes first alternates by round). */
function pairedSample(bare: string, file: string, withMaps: boolean, round: number): { bare: number; own: number } {
  if ((round + (withMaps ? 1 : 0)) % 2 === 0) {
    const bareMs = initOnce(bare, withMaps);
    return { bare: bareMs, own: initOnce(file, withMaps) };
  }
  const own = initOnce(file, withMaps);
  return { bare: initOnce(bare, withMaps), own };
}

export async function measureBundles(): Promise<{ bare: BundleRow; functions: BundleRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'verity-bundles-'));
  try {
    const targets: ({ name: string } & Source)[] = [
      { name: 'bare DynamoDB handler', contents: BARE_HANDLER },
      { name: BARE_ONE_FILE, contents: BARE_HANDLER, oneFile: true },
      ...handlerEntries(),
    ];
    const built = [];
    for (const target of targets) {
      const outdir = join(dir, target.name.replace(/\W+/g, '-'));
      const linkedMapsDir = join(dir, `${target.name.replace(/\W+/g, '-')}.linked`);
      await bundle(target, linkedMapsDir, 'linked');
      built.push({
        name: target.name,
        outfile: join(outdir, ENTRY_FILE),
        linkedMapsFile: join(linkedMapsDir, ENTRY_FILE),
        ...(await bundle(target, outdir, LAMBDA_BUNDLING.sourceMap ? 'external' : false)),
      });
    }
    const [bareBuilt, ...functionsBuilt] = built;
    if (bareBuilt === undefined) throw new Error('no bare handler');
    // Warm the file cache and the node binary's pages, so the first function measured is not the unlucky one.
    for (const item of built) initOnce(item.outfile, false);

    type Samples = { bare: number[]; own: number[]; ratios: number[] };
    const empty = (): Samples => ({ bare: [], own: [], ratios: [] });
    const samples = new Map(functionsBuilt.map((item) => [item.name, { plain: empty(), maps: empty() }]));
    for (let round = 0; round < INIT_RUNS; round += 1) {
      for (const item of functionsBuilt) {
        for (const withMaps of [false, true]) {
          const pair = withMaps
            ? pairedSample(bareBuilt.linkedMapsFile, item.linkedMapsFile, true, round)
            : pairedSample(bareBuilt.outfile, item.outfile, false, round);
          const into = withMaps ? samples.get(item.name)!.maps : samples.get(item.name)!.plain;
          into.bare.push(pair.bare);
          into.own.push(pair.own);
          into.ratios.push(pair.own / pair.bare);
        }
      }
    }
    const all = [...samples.values()];
    const bare: BundleRow = {
      name: bareBuilt.name,
      bytes: bareBuilt.bytes,
      lazyBytes: bareBuilt.lazyBytes,
      weights: bareBuilt.weights,
      calls: bareBuilt.calls,
      initMs: median(all.flatMap((entry) => entry.plain.bare)),
      initRatio: 1,
      initWithMapsMs: median(all.flatMap((entry) => entry.maps.bare)),
      initWithMapsRatio: 1,
    };
    const functions = functionsBuilt.map((item) => {
      const { plain, maps } = samples.get(item.name)!;
      return {
        name: item.name,
        bytes: item.bytes,
        lazyBytes: item.lazyBytes,
        weights: item.weights,
        calls: item.calls,
        initMs: median(plain.own),
        initRatio: median(plain.ratios),
        initWithMapsMs: median(maps.own),
        initWithMapsRatio: median(maps.ratios),
      };
    });
    return { bare, functions };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An API function serves an endpoint group (lib/stacks/api-stack.ts); the others are background functions. */
const API_FUNCTIONS = new Set<string>(ENDPOINT_GROUPS);

/** The init aim of an API function; undefined for a background function, which is exempt. */
function aimOf(row: Pick<BundleRow, 'name'>): number | undefined {
  return API_FUNCTIONS.has(row.name) ? API_INIT_AIM : undefined;
}

export function formatBundles({ bare, functions }: { bare: BundleRow; functions: BundleRow[] }, options: { sourceMaps: boolean }): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const verdict = (row: BundleRow) => {
    const aim = aimOf(row);
    if (aim === undefined) return row.name === BARE_ONE_FILE ? 'reference' : 'exempt (background)';
    const initRatio = options.sourceMaps ? row.initWithMapsRatio : row.initRatio;
    return initRatio <= aim ? 'PASS' : `FAIL (init ${initRatio.toFixed(2)}x > ${aim}x)`;
  };
  // Against the bare handler bundled as one file, as every ratio before the split was read: this run's ratio over the
  // one-file handler's own (both medians of paired ratios to the split bare handler, so derived, not paired).
  const oneFile = functions.find((row) => row.name === BARE_ONE_FILE);
  const rows = [bare, ...functions].map((row) => [
    row.name,
    row.calls.join(', '),
    kb(row.bytes),
    (row.bytes / bare.bytes).toFixed(2),
    kb(row.lazyBytes),
    `${row.initMs.toFixed(1)} ms`,
    row.initRatio.toFixed(2),
    oneFile === undefined ? '' : (row.initRatio / oneFile.initRatio).toFixed(2),
    `${row.initWithMapsMs.toFixed(1)} ms`,
    row.initWithMapsRatio.toFixed(2),
    row === bare || aimOf(row) === undefined ? '' : `init ≤ ${aimOf(row)}x`,
    row === bare ? '' : verdict(row),
  ]);
  const header = ['function', 'calls', 'read at start', 'x bare', 'on first call', 'init', 'x bare', 'x one-file bare', 'init, maps in use', 'x bare', 'aim', 'verdict'];
  const heaviest =
    TOP_MODULES > 0
      ? `\n${[bare, ...functions].map((row) => `${row.name}: ${row.weights.slice(0, TOP_MODULES).map(([owner, bytes]) => `${owner} ${kb(bytes)}`).join(', ')}`).join('\n')}`
      : '';
  const judged = functions.filter((row) => aimOf(row) !== undefined);
  const passing = judged.filter((row) => verdict(row) === 'PASS').length;
  return [
    formatTable(header, rows),
    heaviest,
    `(read at start: the entry index.mjs and the chunks it imports; on first call: the chunks its import()s read, an adapter's SDK client for one)`,
    `(init: the entry's import in a fresh Node process, its lazily loaded chunks on disk beside it; median of ${INIT_RUNS} samples, each ratio the median of samples paired with a bare-handler sample beside it)`,
    `(x one-file bare: init against the bare handler bundled as one file, the reference of the ratios read before the bundles were split; derived from the two medians)`,
    `(init, maps in use: bundled with a linked source map and run with --enable-source-maps, so stack traces are mapped)`,
    `(aim: every API function's init ≤ ${API_INIT_AIM}x bare; the background functions are exempt; the verdict reads init ${options.sourceMaps ? 'with maps in use' : 'without source maps'}, as the functions run)`,
    `${passing} of ${judged.length} API functions meet the aim${passing === judged.length ? '.' : `; over it: ${judged.filter((row) => verdict(row) !== 'PASS').map((row) => row.name).join(', ')}.`}`,
  ]
    .filter(Boolean)
    .join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Lambda bundles: size and module init against a bare DynamoDB handler…');
  console.log(formatBundles(await measureBundles(), { sourceMaps: LAMBDA_BUNDLING.enableSourceMaps }));
}
