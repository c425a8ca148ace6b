import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { localScheduleFile, readScheduleFile } from '#core/adapters/local/local-scheduler.ts';
import { startLocalJobs } from '../../scripts/local/jobs.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * A tenant's transfer schedule made through the API outlives a restart of the local stack: the API's Scheduler port
 * keeps it in the data folder's schedule file, and a jobs runner started afresh on that folder (what `npm start`
 * does after a restart) invokes the jobs handler with the schedule's `{ job, input }`, as EventBridge Scheduler
 * invokes the jobs function. A removed schedule is gone after the restart too.
 */
let admin = '';
beforeAll(async () => {
  admin = (await signIn('admin@acme.test'))!.id_token;
});
afterEach(() => vi.useRealTimers());

const reference = `restart-${randomBytes(4).toString('hex')}`;
const path = `/api/v1/acme/transfer_configs/${reference}`;

/** Starts the jobs runner as `npm start` would after a restart, with a recording handler, and lets a day pass. */
async function restartAndWaitADay(): Promise<unknown[]> {
  const invoked: unknown[] = [];
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const jobs = await startLocalJobs({ logLevel: 'error', schedules: [], dataDir: stack().dataDir, handler: async (event) => void invoked.push(event) });
  try {
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
  } finally {
    jobs.stop();
  }
  return invoked;
}

describe('local transfer schedules across a restart', () => {
  it('a schedule made through the API fires after a restart, through the jobs handler; once deleted it does not', async () => {
    const created = await api(path, {
      method: 'POST',
      headers: bearer(admin, { 'content-type': 'application/json' }),
      body: JSON.stringify({
        transfer_type: 'Payload',
        target_type: 'S3',
        payload_types: ['Call'],
        // Daily: the test stack's own runner will not fire it while the tests run; the restarted one is given a day.
        schedule: 'rate(1 day)',
        transfer_file_format: 'Zipped',
        params: { destination: 's3://verity-transfer-destination/restart/', iam_role_arn: 'arn:aws:iam::123456789012:role/verity-delivery' },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);

    const kept = readScheduleFile(localScheduleFile(stack().dataDir)).filter((schedule) => schedule.target.input.transfer_config_reference === reference);
    expect(kept).toHaveLength(1);
    const expected = { job: 'transfer', input: { client: 'acme', transfer_config_reference: reference, trigger: 'schedule' } };
    expect(await restartAndWaitADay()).toContainEqual(expected);

    const deleted = await api(path, { method: 'DELETE', headers: bearer(admin) });
    expect(deleted.status).toBeLessThan(300);
    expect(readScheduleFile(localScheduleFile(stack().dataDir)).filter((schedule) => schedule.name === kept[0]!.name)).toEqual([]);
    expect(await restartAndWaitADay()).not.toContainEqual(expected);
  });
});
