import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { signInDemoAccount } from '../../../scripts/device/portal-sign-in.ts';
import { seedDemoCase } from '../../../scripts/local/seed/cases.ts';
import { seedDemoCompleteness } from '../../../scripts/local/seed/completeness.ts';
import { seedDemoFleet } from '../../../scripts/local/seed/fleet.ts';
import { writeSyntheticFleet } from '../../../scripts/local/seed/synthetic-fleet.ts';
import { startLocalStack } from '../../../scripts/local/stack.ts';
import { WEB_DIST_ENV } from './env.ts';

/**
 * The browser tests' stack, in its own process (run by tsx from ./stack.ts): the real local stack on a free port, in a
 * temporary data directory with DynamoDB in memory, and the demo fleet and media seeded before it says ready. It prints
 * one `READY <json>` line, then runs until SIGTERM, SIGINT or its parent goes away (stdin closes).
 */
/** Tenant acme's extra devices: more than one page. */
const ACME_DEVICES = 60;
const dataDir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
const webRoot = process.env[WEB_DIST_ENV];
const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true, ...(webRoot ? { webRoot } : {}) });

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stack.stop().catch((error: unknown) => console.error(error));
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
process.stdin.on('close', () => void stop(0));
process.stdin.on('end', () => void stop(0));
process.stdin.resume();

try {
  // The fleet goes through the running API (device simulator); the tests need its devices, so wait for it. The media
  // recorded after the fleet are not needed by the browser tests: a failure there is reported, not fatal.
  await seedDemoFleet(stack, join(dataDir, 'devices'));
  // The completeness report's browser test walks to demo-chloe's missing call (scripts/local/seed/completeness.ts).
  await seedDemoCompleteness(stack, join(dataDir, 'devices'));
} catch (error) {
  console.error(`Demo seed incomplete: ${error instanceof Error ? error.message : String(error)}`);
}
// The demo case, as `npm start` opens it: the productions test produces it (two of the fleet's people).
try {
  await seedDemoCase(stack);
} catch (error) {
  console.error(`Demo case not opened: ${error instanceof Error ? error.message : String(error)}`);
}
// More devices than one page (the API's default page is 50), so the list test sees "Load more".
await writeSyntheticFleet(buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' })), 'acme', ACME_DEVICES, { writer: 'e2e' });
const devices = await countDemoDevices(stack.apiUrl);
if (devices === 0) {
  console.error('The demo tenant has no devices: the fleet was not seeded.');
  await stop(1);
}
const { host, port, username, password, hostKeyFingerprint } = stack.sftp;
const sftp = { host, port, username, password, hostKeyFingerprint };
console.log(`READY ${JSON.stringify({ baseURL: stack.apiUrl, dataDir, devices, env: stack.env, sftp })}`);

/** Devices of tenant demo on the first page, as its admin sees them through the API. */
async function countDemoDevices(apiUrl: string): Promise<number> {
  const token = await signInDemoAccount(apiUrl, 'admin@demo.test');
  const response = await fetch(`${apiUrl}/api/v1/demo/devices?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return 0;
  const body = (await response.json()) as { data?: unknown[] };
  return body.data?.length ?? 0;
}

