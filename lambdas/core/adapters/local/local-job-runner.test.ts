import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { createLocalJobRunner, setLocalJobHandler } from './local-job-runner.ts';

afterEach(() => setLocalJobHandler());

function logged() {
  const lines: Array<{ level: string; message: string; job?: string; error?: string }> = [];
  return { lines, logger: createLogger({ level: 'debug', sink: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) }) };
}

describe('local job runner', () => {
  it('runs the job on the registered jobs handler after answering, and logs a job that fails', async () => {
    const { lines, logger } = logged();
    const runs: Array<[string, Record<string, unknown>]> = [];
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    setLocalJobHandler(async (job, input) => {
      runs.push([job, input]);
      if (runs.length === 2) {
        finished();
        throw new Error('table unavailable');
      }
    });
    const runner = createLocalJobRunner(logger);
    await runner.start('payload-processing', { payload_reference: 'a' });
    // Accepted, not yet run: like an asynchronous invoke.
    expect(runs).toEqual([]);
    await runner.start('payload-processing', { payload_reference: 'b' });
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([
      ['payload-processing', { payload_reference: 'a' }],
      ['payload-processing', { payload_reference: 'b' }],
    ]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', message: 'job failed', job: 'payload-processing', error: 'table unavailable' }));
  });

  it('without a jobs handler only says the job was not started', async () => {
    const { lines, logger } = logged();
    await createLocalJobRunner(logger).start('payload-processing', {});
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', message: 'no local jobs handler: job not started', job: 'payload-processing' })]);
  });
});
