import { describe, expect, it } from 'vitest';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createLogger } from '#core/logger.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { joinJobTables } from '../../lambdas/jobs/job-dispatch.ts';
import { JOBS } from '../../lambdas/jobs/jobs.ts';
import { TRANSFER_JOBS } from '../../lambdas/transfer-jobs/transfer-jobs.ts';
import { createLocalJobsHandler, LOCAL_JOBS, startLocalJobs } from './jobs.ts';

/** Dependencies whose table holds nothing. */
function emptyDependencies(): Dependencies {
  const table = { get: async () => undefined, query: async () => ({ items: [] }) } as unknown as TableStore;
  return { table, clock: createFixedClock(), config: {}, logger: createLogger({ level: 'error' }) } as unknown as Dependencies;
}

describe('local jobs handler', () => {
  it('knows every job of the jobs function and of the transfer jobs function', () => {
    expect(Object.keys(LOCAL_JOBS).sort()).toEqual([...Object.keys(JOBS), ...Object.keys(TRANSFER_JOBS)].sort());
    expect(Object.keys(LOCAL_JOBS)).toContain('transfer');
  });

  it('runs a transfer and a jobs-function job through one dispatch, and still refuses an unknown job', async () => {
    const run = createLocalJobsHandler(emptyDependencies);
    await expect(run({ job: 'transfer', input: { client: 'acme', transfer_config_reference: 'nightly', trigger: 'schedule' } })).resolves.toEqual({
      skipped: 'the configuration is missing or inactive',
    });
    await expect(run({ job: 'payload-sweep', input: {} })).resolves.toMatchObject({ clients: 0 });
    await expect(run({ job: 'constructor' })).rejects.toThrow('Unknown job "constructor"');
  });

  it('sweeps for stuck jobs when asked (at start-up), and again once the soonest lease the sweep saw has run out', async () => {
    const runs: string[] = [];
    const reports: Array<Record<string, unknown>> = [{ next_due: new Date(Date.now() + 100).toISOString() }, {}];
    const jobs = await startLocalJobs({
      schedules: [],
      handler: async (event) => {
        runs.push(event.job);
        return reports.shift() ?? {};
      },
    });
    try {
      await jobs.sweepNow();
      expect(runs).toEqual(['job-sweep']);
      // Due 100 ms from now, swept a second after (the lease must have run out when the sweep reads it).
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect(runs).toEqual(['job-sweep', 'job-sweep']);
      // That sweep saw no lease left: nothing more is armed.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(runs).toHaveLength(2);
    } finally {
      jobs.stop();
    }
  });

  it('refuses to join tables that both name a job', () => {
    expect(() => joinJobTables(JOBS, TRANSFER_JOBS, { 'payload-sweep': JOBS['payload-sweep']! })).toThrow('Job "payload-sweep" is in two job tables');
  });
});
