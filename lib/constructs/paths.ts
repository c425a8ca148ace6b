import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is `lib/constructs/paths.ts`). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** A module answering 501 "not built yet", deployed for a group whose handler does not exist yet. */
export const NOT_BUILT_HANDLER = `${REPO_ROOT}/lib/constructs/not-built-handler.ts`;

/** Where the portal build lands (`npm run build:web`), and the page deployed when it has not been built. */
export const WEB_DIST_DIR = `${REPO_ROOT}/web/dist`;
export const WEB_PLACEHOLDER_DIR = `${REPO_ROOT}/lib/assets/web-placeholder`;

/** The handler module of a Lambda folder (`lambdas/<folder>/handler.ts`), or undefined when not written yet. */
export function handlerEntry(folder: string): string | undefined {
  const entry = `${REPO_ROOT}/lambdas/${folder}/handler.ts`;
  return existsSync(entry) ? entry : undefined;
}

/** The built portal if present, else the placeholder page, so synth works before the web app is built. */
export function webAssetDir(): string {
  return existsSync(`${WEB_DIST_DIR}/index.html`) ? WEB_DIST_DIR : WEB_PLACEHOLDER_DIR;
}
