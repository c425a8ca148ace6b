import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import { writeSyntheticFleet } from '../local/seed/synthetic-fleet.ts';
import { startLocalStack } from '../local/stack.ts';
import { LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.ts';
import { formatBundles, measureBundles } from './bundles.ts';
import { formatTable, interleavedMedians } from './measure.ts';
import { measurePayloadPage, measurePeakMemory, measureThroughput, type BenchRow } from './payloads.ts';
import { benchWeb } from './web.ts';
import { benchLoad, loadOptions } from './load.ts';
import { benchPackaging } from './packaging.ts';
import { benchTransfers, transfersMib } from './transfers.ts';
import { benchSmallTransfers, SMALL_FILE_KIB, SMALL_FILES, smallTransfersOptions } from './transfers-small.ts';
import { benchMigration, migrationProfile, migrationResultsOnly, migrationRows } from './migration.ts';
import { benchCapacity, capacitySizes } from './capacity.ts';
import { benchLexicon } from './lexicon.ts';
import { benchCompleteness, completenessSizes } from './completeness.ts';

/**
 * `npm run bench`: how `GET dashboard` and `GET devices` (first page) scale with the fleet. A dedicated local stack in a
 * temp dir (nothing of `.data/` is touched); tenant `demo` gets 100 devices and tenant `acme` 20,000, written directly
 * with the same key builders and dashboard counter operations the services use (seed/synthetic-fleet.ts). Then
 * both tenants' admins call both endpoints over HTTP, interleaved so machine noise hits both sizes alike, and the
 * median times are compared. Aim: ratio (20,000 / 100) under 1.5, because both reads are one GetItem / one Query page.
 * Then the payload bench (./payloads.ts): processing throughput against openssl and peak memory on 1 GiB (before the
 * stack starts, so its processes do not compete), and `GET payloads` at 100,000 against 1,000 on the same stack.
 */
const SMALL = 100;
const LARGE = 20_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const MIGRATION_ROWS_IN_FULL_RUN = 10_000;

// `npm run bench -- load [--clients n] [--seconds n]`: the audit trail under load (./load.ts) alone.
const sectionArgs = process.argv.slice(2);
// `npm run bench -- bundles`: each Lambda's bundle size and module init against a bare DynamoDB handler alone.
if (sectionArgs[0] === 'bundles') {
  console.log('Lambda bundles: size and module init against a bare DynamoDB handler (the CDK\'s esbuild options)…');
  console.log(formatBundles(await measureBundles(), { sourceMaps: LAMBDA_BUNDLING.enableSourceMaps }));
  process.exit(0);
}
if (sectionArgs[0] === 'load') {
  console.log(`Audit trail under load…\n\n${await benchLoad(loadOptions(sectionArgs))}`);
  process.exit(0);
}
// `npm run bench -- migration [--rows N] [--results-only] [--profile]`: a legacy export imported by the migration job (./migration.ts) alone.
if (sectionArgs[0] === 'migration') {
  const rows = migrationRows(sectionArgs);
  const report = await benchMigration(rows, { resultsOnly: migrationResultsOnly(sectionArgs), profile: migrationProfile(sectionArgs) });
  console.log(`Legacy migration: ${rows} rows imported by the job against reading them, peak memory…\n\n${report}`);
  process.exit(0);
}
// `npm run bench -- transfers [--mib n] [--files n] [--kib n] [--small-only | --large-only] [--profile]`: ZippedWithPassword
// + PGP streamed to SFTP against a plain put (./transfers.ts), then many small recordings through the transfer job
// against a plain batch put (./transfers-small.ts).
if (sectionArgs[0] === 'transfers') {
  if (!sectionArgs.includes('--small-only')) {
    const mib = transfersMib(sectionArgs);
    console.log(`Transfers: ${mib} MiB packaged and delivered to SFTP against a plain SFTP put, peak memory…\n\n${await benchTransfers(mib)}\n`);
  }
  if (!sectionArgs.includes('--large-only')) {
    const small = smallTransfersOptions(sectionArgs);
    console.log(`Transfers: ${small.files} recordings of ${small.kib} KiB through the transfer job against a plain batch put…\n\n${await benchSmallTransfers(small)}`);
  }
  process.exit(0);
}
// `npm run bench -- capacity [--small n] [--large n]`: read and write units per endpoint and job at two history sizes (./capacity.ts).
if (sectionArgs[0] === 'capacity') {
  const sizes = capacitySizes(sectionArgs);
  const started = performance.now();
  console.log(`Capacity: every list and detail endpoint and the jobs at ${sizes.small.toLocaleString('en-GB')} and ${sizes.large.toLocaleString('en-GB')} recordings…`);
  console.log(`\n${await benchCapacity(sizes)}\n(${((performance.now() - started) / 1000).toFixed(0)} s in all, seeding included)`);
  process.exit(0);
}
// `npm run bench -- lexicon`: supervision's lexicon engine at 1,000 against 10 terms, and against indexOf (./lexicon.ts) alone.
if (sectionArgs[0] === 'lexicon') {
  console.log(`Lexicon: 100,000 messages at 1,000 terms against 10 terms, one term against indexOf…\n\n${benchLexicon()}`);
  process.exit(0);
}
// `npm run bench -- completeness [--small n] [--large n] [--batch n]`: capture completeness reconciliation per entry at two
// sizes of one device's history (./completeness.ts) alone.
if (sectionArgs[0] === 'completeness') {
  const sizes = completenessSizes(sectionArgs);
  const started = performance.now();
  console.log(`Capture completeness: reconciling new entries and recordings against ${sizes.small.toLocaleString('en-GB')} and ${sizes.large.toLocaleString('en-GB')} ledger entries of history…`);
  console.log(`\n${await benchCompleteness(sizes)}\n(${((performance.now() - started) / 1000).toFixed(0)} s in all, seeding included)`);
  process.exit(0);
}
// `npm run bench -- packaging`: transfer packaging (./packaging.ts) alone.
if (sectionArgs[0] === 'packaging') {
  console.log(`Transfer packaging: throughput against hashing, peak memory…\n\n${await benchPackaging()}`);
  process.exit(0);
}

console.log('Lambda bundles: size and module init against a bare DynamoDB handler (the CDK\'s esbuild options)…');
console.log(`${formatBundles(await measureBundles(), { sourceMaps: LAMBDA_BUNDLING.enableSourceMaps })}\n`);

console.log('Payload processing: sealing and decrypting (throughput, then peak memory on 1 GiB)…');
const payloadRows: BenchRow[] = [...(await measureThroughput()), await measurePeakMemory()];

// Supervision's lexicon engine (./lexicon.ts), in process and before the stack starts, so nothing competes with it.
console.log('\nLexicon: 100,000 messages at 1,000 terms against 10 terms, one term against indexOf…');
console.log(`\n${benchLexicon()}\n`);

// Transfer packaging (./packaging.ts), also before the stack starts: its child processes measure their own peaks.
console.log('\nTransfer packaging: ZippedWithPassword + PGP and Uncompressed + PGP against hashing, peak memory…');
console.log(`\n${await benchPackaging()}\n`);

// Transfers (./transfers.ts): the same packaging streamed to the SFTP stand-in against a plain put, peaks per child.
console.log('Transfers: ZippedWithPassword + PGP delivered to SFTP against a plain SFTP put, peak memory…');
console.log(`\n${await benchTransfers(transfersMib([]))}\n`);
console.log(`Transfers: ${SMALL_FILES} recordings of ${SMALL_FILE_KIB} KiB through the transfer job against a plain batch put…`);
console.log(`\n${await benchSmallTransfers({ files: SMALL_FILES, kib: SMALL_FILE_KIB })}\n`);

// The legacy migration (./migration.ts) at a tenth of its own section's 100,000 rows, so the whole bench stays short;
// `npm run bench -- migration` imports the 100,000.
console.log(`Legacy migration: ${MIGRATION_ROWS_IN_FULL_RUN} rows imported by the job against reading them, peak memory…`);
console.log(`\n${await benchMigration(MIGRATION_ROWS_IN_FULL_RUN)}\n`);

// Capture completeness reconciliation (./completeness.ts) on its own stack: flat per entry from 1,000 to 100,000.
console.log('Capture completeness: reconciling new entries and recordings against 1,000 and 100,000 ledger entries of history…');
console.log(`\n${await benchCompleteness(completenessSizes([]))}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'verity-bench-'));
const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true });
try {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  const writeStart = performance.now();
  await Promise.all([
    writeSyntheticFleet(deps, 'demo', SMALL, { writer: 'bench', deactivateEvery: 10 }),
    writeSyntheticFleet(deps, 'acme', LARGE, { writer: 'bench', deactivateEvery: 10 }),
  ]);
  console.log(`Wrote ${SMALL} devices (demo) and ${LARGE} devices (acme) in ${((performance.now() - writeStart) / 1000).toFixed(1)} s`);

  const tokens = { demo: await signInDemoAccount(stack.apiUrl, 'admin@demo.test'), acme: await signInDemoAccount(stack.apiUrl, 'admin@acme.test') };
  const endpoints = [
    { label: 'GET dashboard', path: (client: string) => `/api/v1/${client}/dashboard` },
    { label: 'GET devices (first page)', path: (client: string) => `/api/v1/${client}/devices` },
  ];
  const rows: string[][] = [];
  for (const endpoint of endpoints) {
    const { small: a, large: b } = await interleavedMedians(
      { url: `${stack.apiUrl}${endpoint.path('demo')}`, token: tokens.demo },
      { url: `${stack.apiUrl}${endpoint.path('acme')}`, token: tokens.acme },
      SAMPLES,
    );
    rows.push([endpoint.label, `${a.toFixed(1)} ms`, `${b.toFixed(1)} ms`, (b / a).toFixed(2), b / a < 1.5 ? 'ok' : 'OVER 1.5']);
  }
  const header = ['endpoint', `median @ ${SMALL}`, `median @ ${LARGE.toLocaleString('en-GB')}`, 'ratio', 'aim < 1.5'];
  console.log(`\n${formatTable(header, rows)}\n(${SAMPLES} samples each, interleaved)\n`);

  payloadRows.push(
    await measurePayloadPage(
      { endpoint: stack.env.DYNAMODB_ENDPOINT, region: stack.env.AWS_REGION, tableName: stack.env.TABLE_NAME },
      stack.apiUrl,
      { small: { client: 'demo', token: tokens.demo }, large: { client: 'acme', token: tokens.acme } },
      SAMPLES,
    ),
  );
  console.log(`\n${formatTable(['payloads', 'result', 'aim', 'verdict'], payloadRows)}\n(page medians: ${SAMPLES} samples each, interleaved)`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// The portal: JS size and LCP of /dashboard in headless Chromium, against its own stack (./web.ts).
console.log('\nPortal: JS and LCP of /dashboard in headless Chromium…');
console.log(`\n${await benchWeb()}`);

// The audit trail under load (./load.ts): audited calls against the same mix with the activity write a no-op.
console.log('\nAudit trail under load (200 clients, 60 s per run)…');
console.log(`\n${await benchLoad(loadOptions([]))}`);
