import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { JobRunner } from '#core/ports/job-runner.ts';
import { openSftpDestination } from '../../lambdas/transfers/delivery/sftp-destination.ts';
import { transferJob } from '../../lambdas/transfers/job/transfer-job.ts';
import { profileTransferJob } from './transfers-small-profile.ts';

/**
 * One measured run of the small-files transfers bench (./transfers-small.ts), in a process of its own so the SFTP
 * stand-in (in the parent, with the rest of the local stack) is not competing with it for the event loop:
 * - `plain <folder of files> <remote folder>`: every file of the folder put over ONE connection through the
 *   transfers' SFTP destination, one after another (the baseline: a plain batch put, as `sftp` with a list of puts);
 *   BENCH_SFTP names the server.
 * - `job <client> <configuration>`: the `transfer` job of the configuration against the stack named by the
 *   environment, its hand-overs run here one after another as Lambda would chain them, until the transfer ends.
 *   BENCH_PROFILE=1 adds where the job's time went (./transfers-small-profile.ts).
 * Prints one JSON line.
 */
const [mode, ...args] = process.argv.slice(2);
const started = performance.now();

if (mode === 'plain') {
  const [folder, remote] = args as [string, string];
  const sftp = JSON.parse(process.env.BENCH_SFTP ?? '{}') as { host: string; port: number; username: string; password: string; hostKeyFingerprint: string };
  const destination = await openSftpDestination({ ...sftp, rootDirectory: `/${remote}` });
  let files = 0;
  for (const name of readdirSync(folder).sort()) {
    const bytes = readFileSync(join(folder, name));
    await destination.put(
      name,
      (async function* () {
        yield bytes;
      })(),
    );
    files += 1;
  }
  await destination.close();
  report({ files });
} else if (mode === 'job') {
  const [client, configReference] = args as [string, string];
  const built = buildDependencies(loadConfig({ ...process.env, LOG_LEVEL: 'error' }));
  const profile = process.env.BENCH_PROFILE === '1' ? profileTransferJob(built) : undefined;
  const handedOver: Array<Record<string, unknown>> = [];
  const jobs: JobRunner = { start: async (_job, input) => void handedOver.push(input) };
  const deps = { ...(profile?.deps ?? built), jobs };
  let outcome = await transferJob(deps, { client, transfer_config_reference: configReference }, profile === undefined ? {} : { openDestination: profile.openDestination });
  let invocations = 1;
  for (let next = handedOver.shift(); next !== undefined; next = handedOver.shift()) {
    outcome = await transferJob(deps, next, profile === undefined ? {} : { openDestination: profile.openDestination });
    invocations += 1;
  }
  report({ transferId: outcome.transfer_id, state: outcome.transfer_state, invocations, ...(profile === undefined ? {} : { profile: profile.report() }) });
} else {
  throw new Error(`usage: transfers-small-child.ts plain <folder> <remote folder> | job <client> <configuration>`);
}

function report(result: Record<string, unknown>): void {
  const seconds = (performance.now() - started) / 1000;
  const usage = process.resourceUsage();
  console.log(JSON.stringify({ ...result, seconds, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, maxRssMiB: usage.maxRSS / 1024 }));
  process.exit(0);
}
