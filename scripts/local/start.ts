import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeRuntime } from '../runtime/lambda-runtime.ts';
import { DEMO_PASSWORD, demoAccounts } from './seed/accounts.ts';
import { DEMO_SFTP } from './sftp.ts';
import { seedDemoFleet } from './seed/fleet.ts';
import { seedDemoSupervision } from './seed/supervision.ts';
import { seedDemoCompleteness } from './seed/completeness.ts';
import { seedDemoCase } from './seed/cases.ts';
import { seedDemoErasureRequest } from './seed/erasure.ts';
import { DEMO_TRANSFER_CONFIG, seedDemoTransferConfig } from './seed/transfer-config.ts';
import { REPO_ROOT, TRANSFER_DESTINATION_BUCKET, startLocalStack } from './stack.ts';
import { ensureWebBuilt } from './web-build.ts';

/**
 * `npm start` (`npm start -- --reset` wipes `.data/` first; `--port <n>` or env PORT, default 3000; the SFTP stand-in's
 * `--sftp-port <n>` or env SFTP_PORT, default 2222).
 * Runs the whole product on one machine; Ctrl-C stops every child process.
 */
const { values } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
    port: { type: 'string' },
    'sftp-port': { type: 'string' },
    'data-dir': { type: 'string' },
  },
});

const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid port: ${values.port ?? process.env.PORT}`);
  process.exit(2);
}
const sftpPort = Number(values['sftp-port'] ?? process.env.SFTP_PORT ?? DEMO_SFTP.port);
if (!Number.isInteger(sftpPort) || sftpPort < 0 || sftpPort > 65_535) {
  console.error(`Invalid SFTP port: ${values['sftp-port'] ?? process.env.SFTP_PORT}`);
  process.exit(2);
}
const dataDir = values['data-dir'] ?? join(REPO_ROOT, '.data');

ensureWebBuilt(REPO_ROOT);

let stack: Awaited<ReturnType<typeof startLocalStack>>;
try {
  stack = await startLocalStack({ dataDir, port, reset: values.reset, sftp: { ...DEMO_SFTP, port: sftpPort } });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.message.startsWith('The SFTP stand-in')) console.error('Another port: SFTP_PORT=<n> npm start, or npm start -- --sftp-port <n>.');
  process.exit(1);
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  await stack.stop();
  console.log('Stopped.');
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));

// `npm start` runs us under npm and tsx. If something kills those without passing the signal on (`timeout`, a closed
// terminal), we are re-parented: stop then too, so DynamoDB Local and s3rver are never left running on their own.
const launchedBy = process.ppid;
setInterval(() => {
  if (process.ppid !== launchedBy) void shutdown('parent exited');
}, 1000).unref();

const width = Math.max(...demoAccounts().map((account) => account.email.length));
console.log(`
Verity (local) at ${stack.apiUrl}
  Runtime    ${describeRuntime()}
  API        ${stack.apiUrl}/api/v1/{client}/…  ·  ${stack.apiUrl}/internal/v1/…  ·  ${stack.apiUrl}/device/v1/…
  OpenAPI    ${stack.apiUrl}/openapi.json
  Health     ${stack.apiUrl}/healthz
  Sign-in    ${stack.oidcIssuer} (OIDC issuer)
  SFTP       sftp://${stack.sftp.username}@${stack.sftp.host}:${stack.sftp.port}  password ${stack.sftp.password}  (host key ${stack.sftp.hostKeyFingerprint})
  S3         ${stack.s3Endpoint} (s3rver with Object Lock; transfer destination bucket ${TRANSFER_DESTINATION_BUCKET})
  Data       ${dataDir}

Demo accounts (password ${DEMO_PASSWORD}):
${demoAccounts()
  .map((account) => `  ${account.email.padEnd(width)}  client ${account.client.padEnd(5)}  groups ${account.groups.join(', ')}`)
  .join('\n')}

Ready: ${stack.apiUrl} (Ctrl-C to stop)`);

// The demo fleet goes through the running API (the device simulator), so it is seeded once the stack is up; the
// portal is usable meanwhile, and the phones appear as they enrol.
try {
  if (await seedDemoFleet(stack, join(dataDir, 'devices'))) console.log('Seeded the demo fleet (npm run device -- list).');
} catch (error) {
  console.error(`Demo fleet not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
// After the fleet: its phones send the messages the demo policies raise items on.
try {
  if ((await seedDemoSupervision(stack, join(dataDir, 'devices'))) !== undefined) console.log('Seeded the demo supervision policies and the messages in the review queue.');
} catch (error) {
  console.error(`Demo supervision not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
// After the fleet and its messages: every phone reports its ledger, and demo-chloe's has gaps.
try {
  if ((await seedDemoCompleteness(stack, join(dataDir, 'devices'))) !== undefined) console.log('Seeded the demo capture completeness (demo-chloe has gaps).');
} catch (error) {
  console.error(`Demo capture completeness not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
// After the fleet: the demo case names two of its device users.
try {
  if (await seedDemoCase(stack)) console.log('Seeded the demo case (two custodians; Cases in the portal).');
} catch (error) {
  console.error(`Demo case not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
// After the fleet: one erasure request recorded and decided, waiting for a second person's review.
try {
  if (await seedDemoErasureRequest(stack)) console.log('Seeded the demo erasure request (du-dev; Erasure requests in the portal).');
} catch (error) {
  console.error(`Demo erasure request not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  if (await seedDemoTransferConfig(stack)) console.log(`Seeded the demo transfer configuration ${DEMO_TRANSFER_CONFIG} (daily, to the SFTP stand-in).`);
} catch (error) {
  console.error(`Demo transfer configuration not seeded: ${error instanceof Error ? error.message : String(error)}`);
}
