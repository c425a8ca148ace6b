import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds the web app into `web/dist` when it is missing (the web engineer owns `web/`; we only run its build).
 * Answers whether `web/dist/index.html` exists afterwards.
 */
export function ensureWebBuilt(root: string, options: { quiet?: boolean } = {}): boolean {
  const index = join(root, 'web/dist/index.html');
  if (existsSync(index)) return true;
  if (!options.quiet) console.log('Building the web app (web/dist is missing)…');
  const build = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts'], {
    cwd: root,
    stdio: options.quiet ? 'ignore' : 'inherit',
  });
  if (build.status !== 0) console.error('The web app did not build; the API still starts, the portal pages will not.');
  return existsSync(index);
}
