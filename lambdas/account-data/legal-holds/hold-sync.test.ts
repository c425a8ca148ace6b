import { describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { readLegalHold } from '#core/store/entities/legal-hold.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { memoryBlobs } from '../../payloads/public.ts';
import { continueHoldSync, LEGAL_HOLD_SYNC_JOB, legalHoldSyncJob } from './hold-sync.ts';
import { HOLD_PAGE } from './object-holds.ts';

const client = 'acme';
const time = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();
const clock = { now: () => new Date(Date.UTC(2026, 0, 1)) };

/**
 * `alice` recorded `own` calls on `dev-1`; `dev-2`, which she holds now, has `others` calls by `bob`. Her hold item
 * carries walk `w1` in the given direction.
 */
async function fleet(own: number, others: number, active = true) {
  const table = createMemoryTable([
    { ...keys.deviceUser.item(client, 'alice'), client, device_user_reference: 'alice', is_active: true },
    { ...keys.device.item(client, 'dev-2', 'alice'), client, device_reference: 'dev-2', device_user_reference: 'alice' },
    {
      ...keys.legalHold.item(client, 'DeviceUser', 'alice'),
      client,
      target: 'alice',
      target_type: 'DeviceUser',
      is_active: active,
      created_at: time(0),
      sync_id: 'w1',
      sync_state: 'Syncing',
      objects_synced: 0,
    },
  ]);
  const blobs = memoryBlobs();
  const references: string[] = [];
  const record = async (n: number, device: string, user: string) => {
    const reference = `01J${String(n).padStart(23, '0')}`;
    await table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time(n), deviceReference: device, deviceUserReference: user }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: 'Processed',
      device_reference: device,
      device_user_reference: user,
    });
    await blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(reference), active ? {} : { lock: { legalHold: true } });
    references.push(reference);
  };
  for (let n = 0; n < own; n += 1) await record(n, 'dev-1', 'alice');
  for (let n = 0; n < others; n += 1) await record(own + n, 'dev-2', 'bob');
  const started: Array<{ job: string; input: Record<string, unknown> }> = [];
  const jobs = { start: async (job: string, input: Record<string, unknown>) => void started.push({ job, input }) };
  // A job run renews its walk's running-job marker: a 4-minute run's lease and a margin.
  const config = { LONG_JOB_BUDGET_SECONDS: 240, LONG_JOB_LEASE_MARGIN_SECONDS: 90 };
  const deps = { table, blobs, clock, jobs, config } as unknown as Dependencies;
  const hold = async () => readLegalHold((await table.get(keys.legalHold.key(client, 'DeviceUser', 'alice')))!);
  const heldCount = async () => (await Promise.all(references.map((ref) => blobs.getLegalHold('processed', payloadObjectKey(client, ref))))).filter(Boolean).length;
  return { table, blobs, deps, started, hold, heldCount, references };
}

describe('a legal hold walk over the recordings, resumable page by page', () => {
  it('stops when its budget runs out, saving where it is and how far it got, and resumes there', async () => {
    const { deps, hold, heldCount } = await fleet(2 * HOLD_PAGE + 20, 30);
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' }, { pages: 1 })).toBe('more');
    expect(await hold()).toMatchObject({ sync_state: 'Syncing', objects_synced: HOLD_PAGE });
    expect((await hold()).sync_position).toBeDefined();
    expect(await heldCount()).toBe(HOLD_PAGE);

    // The rest: the other pages of her own list, then her device's list (bob's 30 on it).
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' }, { pages: 2 })).toBe('more');
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' })).toBe('done');
    const done = await hold();
    expect(done).toMatchObject({ sync_state: 'Synced', objects_synced: 2 * HOLD_PAGE + 20 + 30 });
    expect(done.sync_position).toBeUndefined();
    expect(await heldCount()).toBe(2 * HOLD_PAGE + 50);
  });

  it('stops without writing once a newer placing or release owns the hold', async () => {
    const { deps, table, hold, heldCount } = await fleet(HOLD_PAGE + 5, 0);
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' }, { pages: 1 })).toBe('more');
    await table.update(keys.legalHold.key(client, 'DeviceUser', 'alice'), { set: { sync_id: 'w2', objects_synced: 0 } });
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' })).toBe('superseded');
    expect((await hold()).objects_synced).toBe(0);
    expect(await heldCount()).toBe(HOLD_PAGE);
  });

  it('releases: clears the objects no other hold covers', async () => {
    const { deps, heldCount } = await fleet(5, 3, false);
    expect(await heldCount()).toBe(8);
    expect(await continueHoldSync(deps, { client, target: 'alice', syncId: 'w1' })).toBe('done');
    expect(await heldCount()).toBe(0);
  });

  it('as a job: starts itself again while there is more, and marks the walk Failed on an error', async () => {
    const { deps, started, hold } = await fleet(HOLD_PAGE + 5, 0);
    const input = { client, target: 'alice', sync_id: 'w1' };
    const marker = () => deps.table.get(keys.runningJob.key(client, 'legal-hold-sync', 'DeviceUser#alice'));
    expect(await legalHoldSyncJob(deps, input, { pages: 1 })).toMatchObject({ outcome: 'more', objects_synced: HOLD_PAGE });
    expect(started).toEqual([{ job: LEGAL_HOLD_SYNC_JOB, input }]);
    // While the walk goes on, its marker names it and the input that resumes it, with a lease past the run's 4 minutes.
    expect(await marker()).toMatchObject({ kind: 'legal-hold-sync', run: 'w1', job: LEGAL_HOLD_SYNC_JOB, input, lease_until: '2026-01-01T00:05:30.000Z' });
    // A superseded walk's run leaves a newer walk's marker alone.
    await deps.table.update(keys.runningJob.key(client, 'legal-hold-sync', 'DeviceUser#alice'), { set: { run: 'w9' } });
    expect(await legalHoldSyncJob(deps, input)).toMatchObject({ outcome: 'done', objects_synced: HOLD_PAGE + 5 });
    expect(await marker()).toMatchObject({ run: 'w9' });
    await deps.table.update(keys.runningJob.key(client, 'legal-hold-sync', 'DeviceUser#alice'), { set: { run: 'w1' } });
    expect(await legalHoldSyncJob(deps, input)).toMatchObject({ outcome: 'done' });
    // Its own walk through, the marker is gone: the job-sweep has nothing to resume.
    expect(await marker()).toBeUndefined();
    expect(started).toHaveLength(1);

    const broken = { ...deps, blobs: { ...deps.blobs, setLegalHold: async () => Promise.reject(new Error('S3 said no')) } } as Dependencies;
    await deps.table.update(keys.legalHold.key(client, 'DeviceUser', 'alice'), { set: { sync_id: 'w3', sync_state: 'Syncing' } });
    await expect(legalHoldSyncJob(broken, { ...input, sync_id: 'w3' })).rejects.toThrow('S3 said no');
    expect(await hold()).toMatchObject({ sync_state: 'Failed', sync_error: 'S3 said no' });
    await expect(legalHoldSyncJob(deps, { client: 'not a client!', target: 'alice', sync_id: 'w3' })).rejects.toThrow();
  });
});
