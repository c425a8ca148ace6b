import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { readMigration } from '#core/store/entities/migration.ts';
import { readRunningJob, type RunningJobItem } from '#core/store/entities/running-job.ts';
import { pendingTransfer as newTransfer, readTransfer } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import { sweepStuckJobs } from '../../lambdas/jobs/job-sweep.ts';
import { startMarkerOperation } from '../../lambdas/jobs/running-jobs.ts';
import { trackedMigration } from '../../lambdas/migrations/job/import-input.ts';
import { DeliveryError } from '../../lambdas/transfers/delivery/index.ts';
import { EARLIER_RUN_DELIVERING, transferJob } from '../../lambdas/transfers/job/transfer-job.ts';
import { recordPendingTransfer } from '../../lambdas/transfers/runs/tracking.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { capturingJobs } from './transfer-job-fixtures.ts';

/**
 * The job-sweep (lambdas/jobs/job-sweep.ts) on DynamoDB Local: a long job whose invocation died (its running-job marker's
 * lease ran out, the job not ended) is resumed with its input, a resumption that moved it on resets the count, one that
 * did not counts towards JOB_RESUMPTION_LIMIT (3), after which the job ends Failed or PartialFail with why and an ops
 * alert; a job held by a live lease, or already ended, is not started. Each sweep reads this test's tenant only.
 */
let tenant: RunTenant;
let deps: Dependencies;
const PAST = () => new Date(Date.now() - 60_000);

beforeAll(async () => {
  tenant = await createRunTenant('sweep');
  deps = tenant.deps;
  const created = await tenant.call('POST', '/transfer_configs/nightly', tenant.admin, {
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call'],
    schedule: '',
    transfer_file_format: 'Uncompressed',
    params: { server: '93.184.215.14', port: 22, root_directory: '/inbox', username: 'verity' },
    secured_data: { sftp_password: 'not-used-here' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}, 60_000);

afterAll(async () => {
  await tenant?.close();
});

/** A Pending transfer of `nightly` whose marker's lease ran out a minute ago (its job's start was lost). */
async function stuckTransfer(): Promise<string> {
  const transfer = newTransfer(tenant.client, { transfer_config_reference: 'nightly', transfer_type: 'Payload' }, { now: new Date(), startedBy: 'test' });
  await recordPendingTransfer(deps, transfer);
  await expireMarker('transfer', transfer.transfer_id);
  return transfer.transfer_id;
}

async function marker(kind: RunningJobItem['kind'], id: string): Promise<RunningJobItem | undefined> {
  const item = await deps.table.get(keys.runningJob.key(tenant.client, kind, id), { consistent: true });
  return item === undefined ? undefined : readRunningJob(item);
}

/** Moves the marker's lease into the past, as time passing without a renewal would. */
async function expireMarker(kind: RunningJobItem['kind'], id: string): Promise<void> {
  const past = PAST();
  await deps.table.update(keys.runningJob.key(tenant.client, kind, id), {
    set: { lease_until: past.toISOString(), gsi1sk: keys.runningJob.item(tenant.client, kind, id, past).gsi1sk },
  });
}

async function sweep() {
  const jobs = capturingJobs();
  const report = await sweepStuckJobs({ ...deps, jobs }, { client: tenant.client });
  return { report, started: jobs.started };
}

async function alertOf(type: string, key: string) {
  const page = await deps.table.query({ ...keys.alert.list(tenant.client), limit: 200 });
  return page.items.find((item) => item.alert_type === type && item.alert_key === key);
}

describe('the job-sweep', () => {
  it('resumes a transfer whose invocation never came, with the input that carries on from its checkpoint', async () => {
    const transferId = await stuckTransfer();
    const { report, started } = await sweep();
    expect(report).toMatchObject({ clients: 1, resumed: 1, given_up: 0, failed: 0 });
    expect(started).toEqual([
      { job: 'transfer', input: { client: tenant.client, transfer_config_reference: 'nightly', transfer_id: transferId, trigger: 'resume' } },
    ]);
    const after = await marker('transfer', transferId);
    expect(after).toMatchObject({ resumptions: 1, stalled: 1 });
    expect(Date.parse(after!.lease_until)).toBeGreaterThan(Date.now());
    // Its new lease has not run out: a second sweep leaves it to the started job.
    expect((await sweep()).started).toEqual([]);
    await deps.table.delete(keys.transfer.key(tenant.client, transferId));
    await deps.table.delete(keys.runningJob.key(tenant.client, 'transfer', transferId));
  });

  it('ends a transfer that makes no progress after 3 resumptions PartialFail, with why and a TransferAlert, and its marker gone', async () => {
    const transferId = await stuckTransfer();
    // Some files arrived before the job stopped moving.
    await deps.table.update(keys.transfer.key(tenant.client, transferId), { set: { transfer_state: 'InProgress', files_total: 4, files_done: 2 } });
    for (let resumption = 1; resumption <= 3; resumption += 1) {
      const { report, started } = await sweep();
      expect(report.resumed, `resumption ${resumption}`).toBe(1);
      expect(started).toHaveLength(1);
      expect(await marker('transfer', transferId)).toMatchObject({ resumptions: resumption, stalled: resumption });
      await expireMarker('transfer', transferId);
    }
    const { report, started } = await sweep();
    expect(report).toMatchObject({ resumed: 0, given_up: 1 });
    expect(started).toEqual([]);
    const transfer = readTransfer((await deps.table.get(keys.transfer.key(tenant.client, transferId), { consistent: true }))!);
    expect(transfer.transfer_state).toBe('PartialFail');
    expect(transfer.error_message).toMatch(/^The job made no progress in 3 resumptions after its invocation stopped \(3 in all\); 2 of 4 files were delivered$/);
    expect(transfer.completed_at).toBeDefined();
    expect(transfer.lease_until).toBeUndefined();
    expect(await alertOf('TransferAlert', `transfer:${transferId}`)).toMatchObject({ alert_scope: 'ops', alert_severity: 'Medium' });
    expect(await marker('transfer', transferId)).toBeUndefined();
    // Ended, it is never resumed again.
    expect((await sweep()).started).toEqual([]);
  });

  it('counts only resumptions that did not move the job on: progress between two starts the count again', async () => {
    const transferId = await stuckTransfer();
    await sweep();
    await expireMarker('transfer', transferId);
    await sweep();
    expect(await marker('transfer', transferId)).toMatchObject({ resumptions: 2, stalled: 2 });
    await deps.table.update(keys.transfer.key(tenant.client, transferId), { set: { transfer_state: 'InProgress', files_total: 3, files_done: 1 } });
    await expireMarker('transfer', transferId);
    await sweep();
    expect(await marker('transfer', transferId)).toMatchObject({ resumptions: 3, stalled: 1 });
    await deps.table.delete(keys.transfer.key(tenant.client, transferId));
    await deps.table.delete(keys.runningJob.key(tenant.client, 'transfer', transferId));
  });

  it('starts nothing for a job an invocation still holds, nor for one that has ended, and removes the stale marker', async () => {
    const held = await stuckTransfer();
    const heldUntil = new Date(Date.now() + 120_000).toISOString();
    await deps.table.update(keys.transfer.key(tenant.client, held), { set: { transfer_state: 'InProgress', lease_id: 'live', lease_until: heldUntil } });
    const ended = await stuckTransfer();
    await deps.table.update(keys.transfer.key(tenant.client, ended), { set: { transfer_state: 'Succeeded', completed_at: new Date().toISOString() } });
    const { report, started } = await sweep();
    expect(report).toMatchObject({ held: 1, cleared: 1, resumed: 0 });
    expect(started).toEqual([]);
    expect((await marker('transfer', held))?.lease_until).toBe(heldUntil);
    expect(await marker('transfer', ended)).toBeUndefined();
    for (const id of [held, ended]) await deps.table.delete(keys.transfer.key(tenant.client, id));
    await deps.table.delete(keys.runningJob.key(tenant.client, 'transfer', held));
  });

  it('resumes a job once when two sweeps run at the same moment', async () => {
    const transferId = await stuckTransfer();
    const jobs = capturingJobs();
    const reports = await Promise.all([1, 2, 3].map(() => sweepStuckJobs({ ...deps, jobs }, { client: tenant.client })));
    expect(reports.reduce((sum, report) => sum + report.resumed, 0)).toBe(1);
    expect(jobs.started).toHaveLength(1);
    await deps.table.delete(keys.transfer.key(tenant.client, transferId));
    await deps.table.delete(keys.runningJob.key(tenant.client, 'transfer', transferId));
  });

  it('resumes a migration whose import stopped, and ends one that cannot go on PartialFail with a MigrationAlert', async () => {
    // Submitted through the API; its import then got 40 rows in and its invocation died.
    const created = await tenant.call('POST', '/migrations', tenant.admin, { filename: 'legacy.ndjson', size_bytes: 100 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reference = String((created.body.migration as { migration_reference: string }).migration_reference);
    const now = new Date();
    await deps.table.transactWrite([
      { kind: 'update', key: keys.migration.key(tenant.client, reference), update: { set: { started_at: now.toISOString(), checkpoint_row: 40 } } },
      startMarkerOperation(trackedMigration({ client: tenant.client, migration_reference: reference }), PAST(), now),
    ]);
    const { started } = await sweep();
    expect(started).toEqual([{ job: 'migration-import', input: { client: tenant.client, migration_reference: reference } }]);
    for (let resumption = 2; resumption <= 4; resumption += 1) {
      await expireMarker('migration', reference);
      await sweep();
    }
    const migration = readMigration((await deps.table.get(keys.migration.key(tenant.client, reference), { consistent: true }))!);
    expect(migration.migration_state).toBe('PartialFail');
    expect(migration.error_message).toMatch(/^The job made no progress in 3 resumptions .*; rows up to 40 were imported, the rest were not$/);
    expect(await alertOf('MigrationAlert', `migration:${reference}`)).toMatchObject({ alert_scope: 'ops' });
    expect(await marker('migration', reference)).toBeUndefined();
  });
});

describe('the job-sweep with walks that have no run record of their own', () => {
  it('resumes an object-retention sync from the position its marker carries, and after 3 resumptions without progress raises an ops alert', async () => {
    const input = { client: tenant.client, payload_types: ['Call'], extended: 7, sync_id: 's-1', start_key: { pk: 'somewhere', sk: 'x' } };
    await deps.table.transactWrite([
      startMarkerOperation({ client: tenant.client, kind: 'object-retention-sync', id: 's-1', job: 'object-retention-sync', input }, PAST(), new Date()),
    ]);
    const { started } = await sweep();
    expect(started).toEqual([{ job: 'object-retention-sync', input }]);
    for (let resumption = 2; resumption <= 4; resumption += 1) {
      await expireMarker('object-retention-sync', 's-1');
      await sweep();
    }
    expect(await marker('object-retention-sync', 's-1')).toBeUndefined();
    expect(await alertOf('AccountAlert', 'object-retention-sync:s-1')).toMatchObject({ alert_scope: 'ops', alert_severity: 'High' });
  });

  it("clears a legal hold walk's marker once a newer placing or release owns the hold, starting nothing", async () => {
    const input = { client: tenant.client, target: 'nobody', sync_id: 'old-walk' };
    await deps.table.put({ ...keys.legalHold.item(tenant.client, 'DeviceUser', 'nobody'), client: tenant.client, target: 'nobody', target_type: 'DeviceUser', is_active: true, created_at: new Date().toISOString(), sync_id: 'new-walk', sync_state: 'Syncing' });
    await deps.table.transactWrite([
      startMarkerOperation({ client: tenant.client, kind: 'legal-hold-sync', id: 'DeviceUser#nobody', job: 'legal-hold-sync', input, run: 'old-walk' }, PAST(), new Date()),
    ]);
    const { report, started } = await sweep();
    expect(report).toMatchObject({ cleared: 1, resumed: 0 });
    expect(started).toEqual([]);
    expect(await marker('legal-hold-sync', 'DeviceUser#nobody')).toBeUndefined();
  });
});

describe('a scheduled run while an earlier run of its configuration has not ended', () => {
  const refused = async () => {
    throw new DeliveryError('refused for the test', { retryable: false });
  };

  it('waits for it while it is being delivered, and carries it on once its lease ran out, never recording a second run', async () => {
    const earlier = newTransfer(tenant.client, { transfer_config_reference: 'nightly', transfer_type: 'Payload' }, { now: new Date(), startedBy: 'schedule' });
    await recordPendingTransfer(deps, earlier);
    const live = new Date(Date.now() + 60_000).toISOString();
    await deps.table.update(keys.transfer.key(tenant.client, earlier.transfer_id), { set: { transfer_state: 'InProgress', lease_id: 'live', lease_until: live } });
    await deps.table.update(keys.runningJob.key(tenant.client, 'transfer', earlier.transfer_id), {
      set: { lease_until: live, gsi1sk: keys.runningJob.item(tenant.client, 'transfer', earlier.transfer_id, live).gsi1sk },
    });
    const scheduled = { client: tenant.client, transfer_config_reference: 'nightly', trigger: 'schedule' };
    const jobDeps = { ...deps, jobs: capturingJobs() };

    expect(await transferJob(jobDeps, scheduled, { openDestination: refused })).toEqual({ skipped: EARLIER_RUN_DELIVERING, transfer_id: earlier.transfer_id });

    await deps.table.update(keys.transfer.key(tenant.client, earlier.transfer_id), { set: { lease_until: PAST().toISOString() } });
    await expireMarker('transfer', earlier.transfer_id);
    const carried = await transferJob(jobDeps, scheduled, { openDestination: refused });
    expect(carried.transfer_id).toBe(earlier.transfer_id);

    const runs = (await readAll(deps.table, keys.transfer.list(tenant.client))).map(readTransfer).filter((run) => run.transfer_config_reference === 'nightly');
    expect(runs.filter((run) => run.started_by === 'schedule').map((run) => run.transfer_id)).toEqual([earlier.transfer_id]);
    // The earlier run ended with the scheduled invocation (its destination refused): its marker went with its end.
    expect(readTransfer((await deps.table.get(keys.transfer.key(tenant.client, earlier.transfer_id), { consistent: true }))!).transfer_state).toBe('Failed');
    expect(await marker('transfer', earlier.transfer_id)).toBeUndefined();
  });

  it('records a run of its own once the earlier run ended', async () => {
    const result = await transferJob({ ...deps, jobs: capturingJobs() }, { client: tenant.client, transfer_config_reference: 'nightly', trigger: 'schedule' }, { openDestination: refused });
    expect(result.transfer_id).toEqual(expect.any(String));
    expect(result.skipped).toBeUndefined();
    expect(await marker('transfer', String(result.transfer_id))).toBeUndefined();
  });
});
