import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { deviceUserToItem } from '#core/store/entities/device-user.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { readRunningJob, type RunningJobKind } from '#core/store/entities/running-job.ts';
import { keys } from '#core/store/keys.ts';
import { isSampled, samplingValue } from '#shared/supervision/sampling.ts';
import { sweepStuckJobs } from '../../lambdas/jobs/job-sweep.ts';
import { startApply } from '../../lambdas/supervision/policies/apply.ts';
import { supervisionApplyJob, supervisionDailyJob } from '../../lambdas/supervision/public.ts';
import { adminCaller } from './support/admin-caller.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { capturingJobs } from './transfer-job-fixtures.ts';

/**
 * The supervision jobs are long jobs the job-sweep watches: an apply of a policy to a past period and the daily
 * sampling minimum keep a running-job marker whose input is where a resumption starts. A run whose invocation died
 * (its hand-over lost, as a killed process leaves it: the marker's lease runs out with the marker still there) is
 * started again by the sweep from its last page and finishes, counting each recording once; an apply that cannot
 * move on is ended Failed with why and an ops alert, never Running for ever.
 */
let tenant: RunTenant;
let admin: string;

const DAY = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
const PERIOD = { from: DAY, to: DAY };
/** Recordings of the day, one per person: more than an apply's page (100) and a daily run's page of people (50). */
const PEOPLE = 120;

const reference = (index: number) => `01JSWEEP${tenant.client.slice(-8).toUpperCase().replace(/[^0-9A-Z]/g, '0')}${String(index).padStart(10, '0')}`;

async function seed(deps: Dependencies, client: string): Promise<void> {
  const now = new Date().toISOString();
  for (let start = 0; start < PEOPLE; start += 25) {
    const items = Array.from({ length: Math.min(25, PEOPLE - start) }, (_, offset) => {
      const index = start + offset;
      const person = `du-${String(index).padStart(3, '0')}`;
      const time = `${DAY}T10:${String(Math.floor(index / 60)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}.000Z`;
      return [
        deviceUserToItem(client, { client, device_user_reference: person, services: ['calls'], expected_device_count: 1, first_name: 'Swept', surname: person, is_active: true, is_legacy: false, updated_at: now, updated_by: 'test' }),
        payloadToItem(client, {
          client,
          payload_reference: reference(index),
          payload_type: 'Call',
          payload_state: 'Processed',
          payload_time: time,
          processed_at: time,
          device_reference: `dev-${index}`,
          device_user_reference: person,
          checksum: 'ab'.repeat(32),
        }),
      ];
    }).flat();
    await deps.table.transactWrite(items.map((item) => ({ kind: 'put' as const, item })));
  }
}

const markerKey = (kind: RunningJobKind, id: string) => keys.runningJob.key(tenant.client, kind, id);
const marker = async (kind: RunningJobKind, id: string) => {
  const item = await tenant.deps.table.get(markerKey(kind, id), { consistent: true });
  return item === undefined ? undefined : readRunningJob(item);
};

/** Moves the marker's lease into the past, as time passing without an invocation renewing it would. */
async function expire(kind: RunningJobKind, id: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await tenant.deps.table.update(markerKey(kind, id), { set: { lease_until: past.toISOString(), gsi1sk: keys.runningJob.item(tenant.client, kind, id, past).gsi1sk } });
}

async function sweep() {
  const jobs = capturingJobs();
  const report = await sweepStuckJobs({ ...tenant.deps, jobs }, { client: tenant.client });
  return { report, started: jobs.started };
}

const policy = async (name: string) => (await tenant.call('GET', `/supervision/policies/${name}`, admin)).body as Record<string, unknown> & { last_apply?: Record<string, unknown> };

async function createPolicy(name: string, body: Record<string, unknown>): Promise<string> {
  const created = await tenant.call('POST', `/supervision/policies/${name}`, admin, body);
  expect(created.status).toBe(200);
  return (created.body as { sampling_seed: string }).sampling_seed;
}

beforeAll(async () => {
  tenant = await createRunTenant('supsweep');
  admin = await portalTokenFor(tenant.client, { sub: `${tenant.client}-admin`, email: `admin@${tenant.client}.test`, groups: ['admin'] });
  await seed(tenant.deps, tenant.client);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('supervision jobs on the job sweep', { timeout: 120_000 }, () => {
  it('an apply whose invocation died after its first page is resumed by the sweep from its next page and completes', async () => {
    await createPolicy('swept-calls', { kind: 'Sampling', sample_percent: 100, scope: { payload_types: ['Call'] } });
    const starting = capturingJobs();
    await startApply(adminCaller({ ...tenant.deps, jobs: starting }, tenant.client, 'supervision:ApplyPolicy'), 'swept-calls', PERIOD);
    expect(starting.started.map((start) => start.job)).toEqual(['supervision-apply']);
    const first = starting.started[0]!.input;
    expect(await marker('supervision-apply', 'swept-calls')).toMatchObject({ kind: 'supervision-apply', job: 'supervision-apply', input: first, run: first.run });

    // One page, then the invocation dies: its hand-over to the next is lost (caught here, never run).
    const lost = capturingJobs();
    expect(await supervisionApplyJob({ ...tenant.deps, jobs: lost }, first, { pages: 1 })).toMatchObject({ outcome: 'more', scanned: 100, raised: 100 });
    const left = await marker('supervision-apply', 'swept-calls');
    expect(left?.input.start_key).toEqual(lost.started[0]?.input.start_key);
    // Before the marker's lease runs out the sweep leaves it to the invocation that may still come.
    expect((await sweep()).report.due).toBe(0);

    await expire('supervision-apply', 'swept-calls');
    const { report, started } = await sweep();
    expect(report).toMatchObject({ due: 1, resumed: 1 });
    expect(started).toEqual([{ job: 'supervision-apply', input: left?.input }]);
    // Still Running as the policy shows it: the marker ran out before the run's own lease.
    expect((await policy('swept-calls')).last_apply).toMatchObject({ state: 'Running', scanned: 100 });

    expect(await supervisionApplyJob({ ...tenant.deps, jobs: capturingJobs() }, started[0]!.input)).toMatchObject({ outcome: 'done', scanned: PEOPLE, raised: PEOPLE });
    expect((await policy('swept-calls')).last_apply).toMatchObject({ state: 'Completed', scanned: PEOPLE, raised: PEOPLE });
    expect(await marker('supervision-apply', 'swept-calls')).toBeUndefined();
    expect((await sweep()).report.due).toBe(0);
  });

  it('an apply that never moves on is ended Failed with why and an ops alert after the resumption limit', async () => {
    await createPolicy('stuck-calls', { kind: 'Sampling', sample_percent: 100, scope: { payload_types: ['Call'] } });
    await startApply(adminCaller({ ...tenant.deps, jobs: capturingJobs() }, tenant.client, 'supervision:ApplyPolicy'), 'stuck-calls', PERIOD);
    const limit = tenant.deps.config.JOB_RESUMPTION_LIMIT;
    for (let resumption = 1; resumption <= limit; resumption += 1) {
      await expire('supervision-apply', 'stuck-calls');
      expect((await sweep()).report.resumed, `resumption ${resumption}`).toBe(1);
    }
    await expire('supervision-apply', 'stuck-calls');
    expect((await sweep()).report.given_up).toBe(1);
    const ended = (await policy('stuck-calls')).last_apply;
    expect(ended).toMatchObject({ state: 'Failed', scanned: 0 });
    expect(ended?.message).toContain('made no progress');
    expect(await marker('supervision-apply', 'stuck-calls')).toBeUndefined();
    const alerts = await tenant.deps.table.query({ ...keys.alert.list(tenant.client), limit: 50 });
    expect(alerts.items.map(readAlert).map((alert) => alert.alert_subject)).toContain('Supervision policy not applied to the whole period');
  });

  it('a daily run whose invocation died after a page of people is resumed from the next page and tops up every person once', async () => {
    const seed = await createPolicy('swept-daily', { kind: 'Sampling', sample_percent: 0.1, sample_minimum: 1, scope: { payload_types: ['Call'] } });
    // Each person's one call is raised unless the share already sampled it.
    const expected = Array.from({ length: PEOPLE }, (_, index) => reference(index)).filter((one) => !isSampled(samplingValue(seed, 'swept-daily', one), 0.1)).length;
    const lost = capturingJobs();
    const first = await supervisionDailyJob({ ...tenant.deps, jobs: lost }, { client: tenant.client, day: DAY }, { pages: 1 });
    expect(first).toMatchObject({ outcome: 'more', at: tenant.client });
    const left = await marker('supervision-daily', DAY);
    expect(left?.input).toEqual(lost.started[0]?.input);
    expect(left?.input).toMatchObject({ client: tenant.client, day: DAY, at: tenant.client, topped_up: first.topped_up });

    await expire('supervision-daily', DAY);
    const { report, started } = await sweep();
    expect(report).toMatchObject({ due: 1, resumed: 1 });
    expect(started).toEqual([{ job: 'supervision-daily', input: left?.input }]);
    expect(await supervisionDailyJob({ ...tenant.deps, jobs: capturingJobs() }, started[0]!.input)).toMatchObject({ outcome: 'done', topped_up: expected });
    expect(await marker('supervision-daily', DAY)).toBeUndefined();
    // Run again, the same choice: nothing added, and no marker left.
    expect(await supervisionDailyJob({ ...tenant.deps, jobs: capturingJobs() }, { client: tenant.client, day: DAY })).toMatchObject({ outcome: 'done', topped_up: 0 });
    expect(await marker('supervision-daily', DAY)).toBeUndefined();
  });
});
