import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { readRunningJob } from '#core/store/entities/running-job.ts';
import { keys } from '#core/store/keys.ts';
import type { ActivityExport } from '#shared/contract/entities/activity-export.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { writeCheckpoint } from '../../lambdas/audit/trail/checkpoint.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { activityExportJob, readActivityExport, startActivityExport } from '../../lambdas/audit/export/export-service.ts';
import { sweepStuckJobs } from '../../lambdas/jobs/job-sweep.ts';
import { adminCaller } from './support/admin-caller.ts';
import { stack } from './support/stack.ts';
import { capturingJobs } from './transfer-job-fixtures.ts';

/**
 * An activity export is a long job the job-sweep watches: the export and its running-job marker are written in one
 * transaction, so an export whose job never ran (a lost start, an invocation that died) is started again by the sweep
 * once the marker's lease runs out, and one that cannot get going is ended Failed with why, never Running forever.
 * A tenant of this run only, its trail written on days of 2001 nothing else uses.
 */
const client = `it-xsweep-${randomUUID().slice(0, 8)}`;
let deps: Dependencies;

const day = (index: number) => `2001-04-${String(index).padStart(2, '0')}T10:00:00.000Z`;
const PERIOD = { trail: 'user' as const, from: '2001-04-01T00:00:00.000Z', to: '2001-04-10T00:00:00.000Z' };

/** Asks for an export as POST activities/exports does, its job's start lost (captured, never run). */
async function exportWithLostStart(): Promise<string> {
  const jobs = capturingJobs();
  const started = await startActivityExport(adminCaller({ ...deps, jobs }, client, 'activities:Export'), PERIOD);
  expect(jobs.started).toEqual([{ job: 'activity-export', input: { client, export_id: started.export_id } }]);
  return started.export_id;
}

const markerKey = (exportId: string) => keys.runningJob.key(client, 'activity-export', exportId);

/** Moves the marker's lease into the past, as time passing without the invocation renewing it would. */
async function expireMarker(exportId: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await deps.table.update(markerKey(exportId), { set: { lease_until: past.toISOString(), gsi1sk: keys.runningJob.item(client, 'activity-export', exportId, past).gsi1sk } });
}

async function sweep() {
  const jobs = capturingJobs();
  const report = await sweepStuckJobs({ ...deps, jobs }, { client });
  return { report, started: jobs.started };
}

const read = (exportId: string): Promise<ActivityExport> => readActivityExport(adminCaller(deps, client, 'activities:Export'), exportId);

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  for (let index = 1; index <= 4; index += 1) {
    await writeActivityRecord(deps, { trail: 'user', client, entry: { user_id: 'sweeper', activity_time: day(index), action: 'roles:List', is_allowed: true, roles: ['admin'], is_client_app: false, status_code: 200 } });
  }
  await linkPending(deps, 'user', client);
  expect(await writeCheckpoint(deps, 'user', client, LOCAL_AUDIT_SIGNING_KEY_ID)).toBe(true);
});

describe('an activity export the job-sweep watches', () => {
  it('is written with its marker; a lost start is started again by the sweep, and the run completes it and ends the marker', async () => {
    const exportId = await exportWithLostStart();
    const marker = readRunningJob((await deps.table.get(markerKey(exportId), { consistent: true }))!);
    expect(marker).toMatchObject({ kind: 'activity-export', job: 'activity-export', input: { client, export_id: exportId } });
    // Before its lease runs out, the sweep leaves it to the invocation that may still come.
    expect((await sweep()).started).toEqual([]);
    await expireMarker(exportId);
    const { report, started } = await sweep();
    expect(report.resumed).toBe(1);
    expect(started).toEqual([{ job: 'activity-export', input: { client, export_id: exportId } }]);
    await activityExportJob(deps, started[0]!.input);
    const done = await read(exportId);
    expect(done).toMatchObject({ state: 'Completed', records_written: 4, records_total: 4 });
    expect(done.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await deps.table.get(markerKey(exportId), { consistent: true })).toBeUndefined();
    expect((await sweep()).report.due).toBe(0);
  });

  it('ends an export whose job never gets going Failed, with why, after 3 resumptions without progress, and its marker gone', async () => {
    const exportId = await exportWithLostStart();
    for (let resumption = 1; resumption <= 3; resumption += 1) {
      await expireMarker(exportId);
      expect((await sweep()).report.resumed).toBe(1);
      expect((await read(exportId)).state).toBe('Running');
    }
    await expireMarker(exportId);
    const { report, started } = await sweep();
    expect(report.given_up).toBe(1);
    expect(started).toEqual([]);
    const failed = await read(exportId);
    expect(failed.state).toBe('Failed');
    expect(failed.failure).toMatch(/^The export job stopped without finishing \(The job made no progress in 3 resumptions.*\): request the export again$/);
    expect(await deps.table.get(markerKey(exportId), { consistent: true })).toBeUndefined();
    // A late invocation of the ended export leaves it as it is.
    expect(await activityExportJob(deps, { client, export_id: exportId })).toEqual({ skipped: 'Failed' });
  });
});
