import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { dashboardCounterOperations, deviceCounterChanges, mergeDashboardChanges } from '#core/store/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';
import { signInDemoAccount } from '../../../scripts/device/portal-sign-in.ts';
import { seedDemoFleet } from '../../../scripts/local/seed/fleet.ts';
import { startLocalStack } from '../../../scripts/local/stack.ts';

/**
 * The browser tests' stack, in its own process (run by tsx from ./stack.ts): the real local stack on a free port, in a
 * temporary data directory with DynamoDB in memory, and the demo fleet and media seeded before it says ready. It prints
 * one `READY <json>` line, then runs until SIGTERM, SIGINT or its parent goes away (stdin closes).
 */
/** Tenant acme's extra devices: more than one page (see writeExtraDevices). */
const ACME_DEVICES = 60;
const dataDir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true });

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
} catch (error) {
  console.error(`Demo seed incomplete: ${error instanceof Error ? error.message : String(error)}`);
}
await writeExtraDevices(stack.env, 'acme', ACME_DEVICES);
const devices = await countDemoDevices(stack.apiUrl);
if (devices === 0) {
  console.error('The demo tenant has no devices: the fleet was not seeded.');
  await stop(1);
}
console.log(`READY ${JSON.stringify({ baseURL: stack.apiUrl, dataDir, devices })}`);

/** Devices of tenant demo on the first page, as its admin sees them through the API. */
async function countDemoDevices(apiUrl: string): Promise<number> {
  const token = await signInDemoAccount(apiUrl, 'admin@demo.test');
  const response = await fetch(`${apiUrl}/api/v1/demo/devices?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return 0;
  const body = (await response.json()) as { data?: unknown[] };
  return body.data?.length ?? 0;
}

/**
 * Tenant acme gets more devices than one page (the API's default page is 50), so the list test sees "Load more";
 * written as scripts/bench/run.ts writes its fleets (the services' key builders and dashboard counter operations).
 */
async function writeExtraDevices(env: Record<string, string>, client: string, count: number): Promise<void> {
  const deps = buildDependencies(loadConfig({ ...env, LOG_LEVEL: 'error' }));
  const now = new Date().toISOString();
  const items = Array.from({ length: count }, (_, index) => {
    const reference = ulid();
    return {
      ...keys.device.item(client, reference),
      client,
      device_reference: reference,
      services: ['calls'],
      imeis: [String(351_000_000_000_000 + index)],
      model: 'Pixel 8',
      is_deactivated: false,
      is_legacy: false,
      activated_at: now,
      app_version: index % 2 === 0 ? '5.2.0' : '5.1.3',
      os_version: index % 3 === 0 ? '14' : '13',
      updated_at: now,
      updated_by: 'e2e',
    };
  });
  for (let start = 0; start < items.length; start += 50) {
    await deps.table.transactWrite(items.slice(start, start + 50).map((item) => ({ kind: 'put' as const, item })));
  }
  await deps.table.transactWrite(dashboardCounterOperations(client, mergeDashboardChanges(...items.map((item) => deviceCounterChanges(undefined, item)))));
}
