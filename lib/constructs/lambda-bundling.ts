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
  /**
   * Native addons stay out of the bundle: `ssh2` (transfer delivery) tries its optional compiled crypto and
   * `cpu-features` inside try/catch and falls back to JavaScript when they are missing, as they are on Lambda.
   */
  external: ['*.node'],
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
