import type { BuildOptions } from 'esbuild';
import { REPO_ROOT } from './paths.ts';

/**
 * How every Verity Lambda is bundled, stated once: `VerityFunction` hands these to the CDK's esbuild, and the bench
 * (`scripts/bench/bundles.ts`) builds with the same values to measure each function's size and start-up.
 */
export const LAMBDA_BUNDLING = {
  format: 'esm',
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
   * payloads bundle, parsed at every start); through these entries it keeps what is used, as a static import would.
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

/**
 * The same values as esbuild's own build options, for the tools that build a handler as the CDK would without
 * synthesising a stack (the bundle bench, and the test that every function's bundle loads).
 */
export function esbuildOptionsLikeLambda(tsconfig: string): BuildOptions {
  return {
    bundle: true,
    platform: LAMBDA_BUNDLING.platform,
    format: LAMBDA_BUNDLING.format,
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    banner: { js: LAMBDA_BUNDLING.banner },
    minify: LAMBDA_BUNDLING.minify,
    external: [...LAMBDA_BUNDLING.external],
    alias: { ...LAMBDA_BUNDLING.alias },
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    tsconfig,
    logLevel: 'error',
  };
}
