import { describe, expect, it } from 'vitest';
import { functionVariableOf, TRANSFER_FUNCTION_JOBS } from '#core/adapters/wiring/job-runner.ts';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createLogger } from '#core/logger.ts';
import type { ItemKey, TableStore } from '#core/ports/table-store.ts';
// The jobs function's own table, which no area's code may reach (its public module leaves it out: it imports every area).
// eslint-disable-next-line verity/lambda-boundaries
import { JOBS } from '../jobs/jobs.ts';
import { createTransferJobsHandler } from './handler.ts';
import { TRANSFER_JOBS } from './transfer-jobs.ts';

/** Dependencies whose table holds nothing and records every read and write. */
function fakeDependencies() {
  const touched: string[] = [];
  const lines: string[] = [];
  const table = {
    get: async (key: ItemKey) => {
      touched.push(`get ${key.pk}`);
      return undefined;
    },
    put: async () => void touched.push('put'),
    query: async () => {
      touched.push('query');
      return { items: [] };
    },
  } as unknown as TableStore;
  const dependencies = {
    table,
    clock: createFixedClock(),
    config: {},
    logger: createLogger({ level: 'debug', sink: (line) => lines.push(line) }),
  } as unknown as Dependencies;
  return { dependencies, touched, lines };
}

describe('transfer jobs handler', () => {
  it('runs exactly the jobs the JobRunner routes to it, and the jobs function runs none of them', () => {
    expect(Object.keys(TRANSFER_JOBS)).toEqual([...TRANSFER_FUNCTION_JOBS]);
    for (const job of Object.keys(TRANSFER_JOBS)) {
      expect(functionVariableOf(job)).toBe('TRANSFER_JOBS_FUNCTION_NAME');
      expect(Object.hasOwn(JOBS, job), job).toBe(false);
    }
    for (const job of Object.keys(JOBS)) expect(functionVariableOf(job), job).toBe('JOBS_FUNCTION_NAME');
  });

  it('runs the transfer job with the event a schedule sends: a missing configuration records nothing', async () => {
    const { dependencies, touched, lines } = fakeDependencies();
    const result = await createTransferJobsHandler(() => dependencies)({
      job: 'transfer',
      input: { client: 'acme', transfer_config_reference: 'nightly', trigger: 'schedule' },
    });
    expect(result).toEqual({ skipped: 'the configuration is missing or inactive' });
    expect(touched).toEqual([expect.stringMatching(/^get C#acme#/)]);
    expect(lines.some((line) => line.includes('job done') && line.includes('"job":"transfer"'))).toBe(true);
  });

  it('refuses a transfer input that names no tenant, before touching the table', async () => {
    const { dependencies, touched } = fakeDependencies();
    const run = createTransferJobsHandler(() => dependencies);
    await expect(run({ job: 'transfer' })).rejects.toThrow(/client/);
    await expect(run({ job: 'transfer', input: { client: '../acme', transfer_id: 'x' } })).rejects.toThrow(/client/);
    expect(touched).toEqual([]);
  });

  it("refuses the jobs function's jobs and unknown names, including names that exist on Object.prototype", async () => {
    const { dependencies, touched } = fakeDependencies();
    const run = createTransferJobsHandler(() => dependencies);
    for (const job of ['payload-processing', 'retention', 'migration-import', 'no-such-job', 'constructor']) {
      await expect(run({ job, input: {} }), job).rejects.toThrow(`Unknown job ${JSON.stringify(job)}`);
    }
    await expect(run({ job: '__proto__' })).rejects.toThrow('Unknown job');
    expect(touched).toEqual([]);
  });

  it('refuses events that are not jobs with the reason, upload and stream events included (they go to the jobs function)', async () => {
    const { dependencies } = fakeDependencies();
    const run = createTransferJobsHandler(() => dependencies);
    await expect(run(null)).rejects.toThrow(/^Not a job event: /);
    await expect(run({ job: 42 })).rejects.toThrow('job: ');
    await expect(run({ job: 'x'.repeat(65) })).rejects.toThrow('Not a job event');
    await expect(run({ job: 'transfer', input: [] })).rejects.toThrow('input: ');
    await expect(run({ source: 'aws.s3', 'detail-type': 'Object Created', detail: {} })).rejects.toThrow('Not a job event');
    await expect(run({ Records: [{ eventSource: 'aws:dynamodb', eventName: 'INSERT' }] })).rejects.toThrow('Not a job event');
  });
});
