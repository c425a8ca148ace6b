import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * The portal's build. Run from the repo root: `npx vite build --config web/vite.config.ts`.
 *
 * Paths are absolute so the config works whatever the working directory is.
 */
const webDir = fileURLToPath(new URL('.', import.meta.url));
const sharedDir = fileURLToPath(new URL('../shared/', import.meta.url));

/**
 * Every API surface the local stack (`npm start`, :3000) serves; the dev server forwards them there.
 * The API prefixes carry their version on purpose: `/internal/support` is a portal page (spec point 2),
 * only `/internal/v1/…` is the internal API, so a bare `/internal` prefix would steal page reloads.
 */
const LOCAL_STACK = 'http://localhost:3000';

/** This build's id: the time it was made, in base 36 (enough to tell two deployments apart). */
const BUILD_VERSION = process.env.VERITY_VERSION ?? Date.now().toString(36);

/** Writes `version.json` beside index.html; open tabs poll it to learn of a new deployment (spec point 4). */
function versionFile(): Plugin {
  return {
    name: 'verity-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: BUILD_VERSION }) });
    },
  };
}
const PROXIED_PREFIXES = ['/api/v1/', '/internal/v1/', '/device/v1/', '/oidc', '/openapi.json', '/healthz'];

export default defineConfig({
  root: webDir,
  publicDir: `${webDir}public`,
  resolve: {
    // Mirrors package.json "imports" (#shared/*) so the browser bundle and Node read the same contract files.
    alias: [{ find: /^#shared\//, replacement: sharedDir }],
  },
  plugins: [
    // Must come before the React plugin: it rewrites route files for code splitting.
    tanstackRouter({
      target: 'react',
      routesDirectory: `${webDir}src/routes`,
      // Committed on purpose: `tsc --noEmit` and the unit tests type-check routes without running a build first.
      // The plugin rewrites it on every dev start and build; a stale copy shows up as a git diff.
      generatedRouteTree: `${webDir}src/route-tree.gen.ts`,
      // Keep the `.tsx` extensions: the repo type-checks with NodeNext resolution, which needs explicit extensions.
      addExtensions: true,
      // Each route's component lives in its own chunk, fetched on first visit only.
      autoCodeSplitting: true,
      quoteStyle: 'single',
      // Co-located tests are not routes.
      routeFileIgnorePattern: '\\.test\\.tsx?$',
    }),
    react(),
    versionFile(),
  ],
  define: {
    __VERITY_VERSION__: JSON.stringify(BUILD_VERSION),
    // Zod compiles fast object parsers with `new Function` when it may, and finds out by trying one as each object
    // schema is built. The portal's CSP forbids eval (no 'unsafe-eval'), so that probe is refused and reported as a
    // violation on every page, though zod catches it. Its global configuration (which zod reads from this global)
    // is fixed at build time to `jitless`: no probe, no compiling; the portal's answers are small, so the interpreted
    // parser costs nothing a user sees. (Set at run time it would come too late: the schemas are built as their
    // chunks load, before any app code runs.)
    'globalThis.__zod_globalConfig': JSON.stringify({ jitless: true }),
  },
  build: {
    outDir: `${webDir}dist`,
    emptyOutDir: true,
    target: 'es2022',
    // Source maps cost build time on a 2-core machine; turn on when debugging a production bundle.
    sourcemap: false,
    reportCompressedSize: true,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(PROXIED_PREFIXES.map((prefix) => [prefix, { target: LOCAL_STACK, changeOrigin: false }])),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(PROXIED_PREFIXES.map((prefix) => [prefix, { target: LOCAL_STACK, changeOrigin: false }])),
  },
});
