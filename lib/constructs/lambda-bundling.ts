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
   * esbuild writes ESM; a few dependencies still call `require` (for Node built-ins), which ESM lacks.
   * The banner gives the bundle a real `require` so those calls work.
   */
  banner:
    "import { createRequire as __verityCreateRequire } from 'node:module'; const require = __verityCreateRequire(import.meta.url);",
  minify: true,
  /** External source maps: they cost nothing at start-up unless `--enable-source-maps` loads them. */
  sourceMap: true,
  sourcesContent: false,
} as const;
