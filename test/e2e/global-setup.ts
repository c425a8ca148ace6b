import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BASE_URL_ENV, RESULTS_DIR_ENV, SFTP_ENV, STACK_ENV_ENV, WEB_DIST_ENV } from './support/env.ts';

/**
 * Playwright's global setup: builds the portal (production build into web/dist), starts the REAL local stack on a free
 * port in its own process (./support/stack-process.ts: DynamoDB Local in memory, s3rver, the OIDC provider, the API and
 * the built portal on one origin, the demo fleet seeded), and hands its URL to the tests through the environment.
 * The returned function stops it all. `E2E_SKIP_BUILD=1` reuses an existing web/dist.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The demo fleet, its media and the demo capture completeness go through the device API and the payload pipeline before
// the stack says ready: minutes on a busy 2-core machine.
const READY_TIMEOUT_MS = 480_000;
const RESULTS_DIR = process.env[RESULTS_DIR_ENV] ?? join(ROOT, 'test-results');

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  rmSync(join(RESULTS_DIR, 'screenshots'), { recursive: true, force: true });
  mkdirSync(RESULTS_DIR, { recursive: true });
  if (process.env.E2E_SKIP_BUILD !== '1') buildWeb();

  const log = createWriteStream(join(RESULTS_DIR, 'e2e-stack.log'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/e2e/support/stack-process.ts')], {
    cwd: ROOT,
    // stdin stays open: the stack stops by itself when this process goes away (the pipe closes).
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr?.pipe(log);
  let ready: Ready;
  try {
    ready = await waitForReady(child, log);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  process.env[BASE_URL_ENV] = ready.baseURL;
  process.env[STACK_ENV_ENV] = JSON.stringify(ready.env);
  process.env[SFTP_ENV] = JSON.stringify(ready.sftp);
  console.log(`e2e: local stack at ${ready.baseURL} (${ready.devices} demo devices) in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  return async () => {
    await stopChild(child);
    log.end();
  };
}

function buildWeb(): void {
  const outDir = process.env[WEB_DIST_ENV];
  const args = ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn', ...(outDir ? ['--outDir', outDir, '--emptyOutDir'] : [])];
  const build = spawnSync('npx', args, { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The web app did not build (npx vite build --config web/vite.config.ts)');
}

/** What the stack process prints on its READY line. */
interface Ready {
  baseURL: string;
  devices: number;
  env: Record<string, string>;
  /** The SFTP stand-in a transfer can deliver to. */
  sftp: { host: string; port: number; username: string; password: string; hostKeyFingerprint: string };
}

function waitForReady(child: ChildProcess, log: NodeJS.WritableStream): Promise<Ready> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The local stack was not ready within ${READY_TIMEOUT_MS / 1000} s (test-results/e2e-stack.log)`)), READY_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      if (!line.startsWith('READY ')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice('READY '.length)) as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The local stack exited (code ${code}) before it was ready (test-results/e2e-stack.log)`));
    });
  });
}

/** SIGTERM (the stack stops DynamoDB Local and s3rver), then SIGKILL if it has not exited within 20 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}
