import { basename } from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';
import { REPO_ROOT } from './paths.ts';

/**
 * How every Verity Lambda is bundled, stated once: `VerityFunction` runs esbuild with these options in the synth
 * process, and the bench (`scripts/bench/bundles.ts`) and the infrastructure tests build with the same options to
 * measure and load each function's bundle.
 */
export const LAMBDA_BUNDLING = {
  format: 'esm',
  /**
   * Code splitting: each `import()` target (an adapter loaded on first call, the PGP key check, the SDK's credential
   * providers) becomes a chunk file beside the entry, read and compiled only when first called. In one file esbuild
   * keeps that code inline, wrapped to run later but still read and parsed at every cold start (docs/decisions.md,
   * "Lambda bundles"). Code shared by the entry and a chunk goes to shared chunks the entry imports.
   */
  splitting: true,
  /** The entry file, `index.mjs`: the function's handler is `index.handler`. */
  entryName: 'index',
  /** Chunks beside the entry, named by their first module and content hash (so the asset hash follows the code). */
  chunkNames: '[name]-[hash]',
  /** `.mjs`, so the Lambda runtime loads the entry and every chunk as an ES module without a package.json. */
  extension: '.mjs',
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  /**
   * esbuild writes ESM; a few CommonJS dependencies still call `require` (for Node built-ins) and read `__dirname` or
   * `__filename` at load (ssh2 does both, for the transfer job), none of which ESM defines. The banner defines all
   * three from the bundle's own URL, so those modules load as they would under CommonJS.
   */
  banner: [
    "import { createRequire as __verityCreateRequire } from 'node:module';",
    "import { fileURLToPath as __verityFileURLToPath } from 'node:url';",
    "import { dirname as __verityDirname } from 'node:path';",
    'const require = __verityCreateRequire(import.meta.url);',
    'const __filename = __verityFileURLToPath(import.meta.url);',
    'const __dirname = __verityDirname(__filename);',
  ].join(' '),
  minify: true,
  /**
   * Native addons stay out of the bundle: `ssh2` (transfer delivery) tries its optional compiled crypto and
   * `cpu-features` inside try/catch and falls back to JavaScript when they are missing, as they are on Lambda.
   */
  external: ['*.node'],
  /**
   * The S3 and KMS clients resolve to entry modules naming only the client and the commands Verity sends
   * (`lambdas/core/adapters/aws/sdk-entries/`). Their adapters load on first use (`loadedOnFirstCall`), and esbuild
   * keeps the whole of a package barrel reached that way (every command, paginator and waiter: 57 KB more in the
   * payloads bundle); through these entries it keeps what is used, as a static import would, and the chunk the first
   * call reads stays small.
   */
  alias: {
    '@aws-sdk/client-s3': `${REPO_ROOT}/lambdas/core/adapters/aws/sdk-entries/client-s3.js`,
    '@aws-sdk/client-kms': `${REPO_ROOT}/lambdas/core/adapters/aws/sdk-entries/client-kms.js`,
  },
  /**
   * External source maps: written beside the bundle (to map a logged stack trace by hand) with no `sourceMappingURL`
   * comment, so nothing reads them at start-up.
   */
  sourceMap: true,
  sourcesContent: false,
  /**
   * No `NODE_OPTIONS=--enable-source-maps`: with external maps it finds no map and maps nothing, and with linked maps
   * it costs module init (measured by `npm run bench -- bundles`; docs/decisions.md, "Lambda bundles").
   */
  enableSourceMaps: false,
} as const;

/** The handler name Lambda is given: the entry file's `handler` export. */
export const LAMBDA_HANDLER = `${LAMBDA_BUNDLING.entryName}.handler`;

/**
 * The esbuild options every Lambda bundle is built with: the CDK's asset bundling (`VerityFunction`), the bundle
 * bench and the tests that load bundles. A caller adds `entryPoints` (one handler module) and `outdir`; the bundle
 * is `<outdir>/index.mjs` with its chunks beside it. Metafile paths are relative to the repository root.
 */
export function esbuildOptionsLikeLambda(tsconfig: string): BuildOptions {
  return {
    bundle: true,
    platform: LAMBDA_BUNDLING.platform,
    format: LAMBDA_BUNDLING.format,
    splitting: LAMBDA_BUNDLING.splitting,
    entryNames: LAMBDA_BUNDLING.entryName,
    chunkNames: LAMBDA_BUNDLING.chunkNames,
    outExtension: { '.js': LAMBDA_BUNDLING.extension },
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    // On every output file: a chunk's CommonJS modules need `require` and `__dirname` as much as the entry's.
    banner: { js: LAMBDA_BUNDLING.banner },
    minify: LAMBDA_BUNDLING.minify,
    external: [...LAMBDA_BUNDLING.external],
    alias: { ...LAMBDA_BUNDLING.alias },
    sourcemap: LAMBDA_BUNDLING.sourceMap ? 'external' : false,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    tsconfig,
    absWorkingDir: REPO_ROOT,
    logLevel: 'error',
  };
}

/** A split bundle's code files (metafile output paths), by when the Lambda runtime reads them. */
interface BundleFiles {
  /** `index.mjs` and the chunks it imports statically: read and run at every cold start. */
  atStart: string[];
  /** The chunks an `import()` in live code reaches: read on first call. */
  onFirstCall: string[];
  /**
   * Chunks no live code imports: esbuild writes a chunk for every `import()` in a module it reads, even when the code
   * holding it is tree-shaken away (a public module's re-export of a module with a dynamic import). Never read.
   */
  neverLoaded: string[];
}

/** Sorts a bundle's code files by when they are read, following the imports esbuild recorded in its metafile. */
export function bundleFilesOf(metafile: Metafile): BundleFiles {
  const code = Object.keys(metafile.outputs).filter((file) => file.endsWith(LAMBDA_BUNDLING.extension));
  // Chunks loaded by `import()` are entry points in the metafile too: the handler's entry is the one named index.
  const entry = code.find((file) => basename(file) === `${LAMBDA_BUNDLING.entryName}${LAMBDA_BUNDLING.extension}`);
  if (entry === undefined) throw new Error(`The bundle has no ${LAMBDA_BUNDLING.entryName}${LAMBDA_BUNDLING.extension}`);
  const reach = (from: string[], kinds: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imported of metafile.outputs[file]?.imports ?? []) if (!imported.external && kinds.includes(imported.kind)) visit(imported.path);
    };
    from.forEach(visit);
    return seen;
  };
  const atStart = reach([entry], ['import-statement']);
  const loaded = reach([entry], ['import-statement', 'dynamic-import']);
  return {
    atStart: code.filter((file) => atStart.has(file)),
    onFirstCall: code.filter((file) => loaded.has(file) && !atStart.has(file)),
    neverLoaded: code.filter((file) => !loaded.has(file)),
  };
}
