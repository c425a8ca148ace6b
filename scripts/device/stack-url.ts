import { join } from 'node:path';
import { REPO_ROOT } from '../local/stack.ts';
import { findRunningStack } from '../local/running-stack.ts';

/** The local stack's default address (`npm start` without `PORT`). */
export const DEFAULT_STACK_URL = 'http://localhost:3000';

/** The data folder `npm start` uses unless told another (`--data-dir`). */
export const DEFAULT_DATA_DIR = join(REPO_ROOT, '.data');

/** Where the simulator sends its calls, and what said so (printed, so a wrong stack is visible at once). */
export interface StackUrl {
  url: string;
  from: string;
}

/**
 * The stack the simulator talks to: `--url`, else `VERITY_URL`, else `PORT` (the stack's own variable, on
 * localhost), else the stack running on the data folder (its `stack.json`, as `npm run job` finds it), else
 * localhost:3000. A stack on another port is found without being told, so commands sent from its portal are answered.
 */
export async function resolveStackUrl(options: { url?: string; env: Record<string, string | undefined>; dataDir: string }): Promise<StackUrl> {
  const trimmed = (url: string) => url.replace(/\/+$/, '');
  if (options.url !== undefined) return { url: trimmed(options.url), from: '--url' };
  if (options.env.VERITY_URL) return { url: trimmed(options.env.VERITY_URL), from: 'VERITY_URL' };
  if (options.env.PORT) {
    const port = Number(options.env.PORT);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`PORT must be a port number (got ${options.env.PORT})`);
    return { url: `http://localhost:${port}`, from: 'PORT' };
  }
  const found = await findRunningStack(options.dataDir);
  if ('stack' in found) return { url: trimmed(found.stack.apiUrl), from: `the stack running on ${options.dataDir}` };
  return { url: DEFAULT_STACK_URL, from: `the default (${found.problem})` };
}
