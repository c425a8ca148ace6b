import { describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { retentionPolicyToItem } from '#core/store/entities/retention-policy.ts';
import { memoryBlobs } from '../../payloads/public.ts';
import { completePolicy } from '../retention/retention-policy.ts';
import { lengthenedTypes, lockDays, objectLockFacts, objectRetentionFor } from './object-retention.ts';
import { OBJECT_RETENTION_SYNC_JOB, objectRetentionSyncJob, RETENTION_PAGE } from './object-retention-sync.ts';

const DAY = 86_400_000;
const now = new Date('2026-06-01T00:00:00Z');
const policy = (rule: Record<string, unknown>) => ({ PayloadData: [{ payload_type: 'Call' as const, retention_timestamp: 'payload_time' as const, required_receipts: 0, required_transfers: 0, ...rule }] });

describe('object retention from the policy', () => {
  it('locks until the base time plus the longer period, counting from what the rule names', () => {
    const call = { payload_type: 'Call' as const, payload_time: '2026-05-01T00:00:00Z', processed_at: '2026-05-03T00:00:00Z' };
    expect(objectRetentionFor(policy({ delete_after_days: 30, destroy_after_days: 40 }), call, 'COMPLIANCE', now)).toEqual({
      mode: 'COMPLIANCE',
      retainUntil: new Date(Date.parse(call.payload_time) + 40 * DAY),
    });
    expect(objectRetentionFor(policy({ destroy_after_days: 40, retention_timestamp: 'processed_at' }), call, 'GOVERNANCE', now)?.retainUntil).toEqual(
      new Date(Date.parse(call.processed_at) + 40 * DAY),
    );
    // Not transferred yet: counted from processing, which is earlier, so the lock passes no later than destruction.
    expect(objectRetentionFor(policy({ destroy_after_days: 40, retention_timestamp: 'transferred_at' }), call, 'GOVERNANCE', now)?.retainUntil).toEqual(
      new Date(Date.parse(call.processed_at) + 40 * DAY),
    );
    expect(objectRetentionFor(policy({ destroy_after_days: 40, retention_timestamp: 'transferred_at' }), { ...call, transferred_at: '2026-05-20T00:00:00Z' }, 'GOVERNANCE', now)?.retainUntil).toEqual(
      new Date(Date.parse('2026-05-20T00:00:00Z') + 40 * DAY),
    );
    // Kept without end, a date already passed, or no payload time: nothing to lock until.
    expect(objectRetentionFor(policy({}), call, 'COMPLIANCE', now)).toBeUndefined();
    expect(objectRetentionFor(policy({ destroy_after_days: 10 }), call, 'COMPLIANCE', now)).toBeUndefined();
    expect(objectRetentionFor(policy({ destroy_after_days: 40 }), { payload_type: 'Call' }, 'COMPLIANCE', now)).toBeUndefined();
    expect(lockDays({ delete_after_days: 7, destroy_after_days: undefined })).toBe(7);
  });

  it('names the types whose lock grows, and tells the editor shorter periods apply to new recordings', () => {
    const before = completePolicy({ PayloadData: [{ payload_type: 'Call', delete_after_days: 10, destroy_after_days: 20, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 }] });
    const after = completePolicy({
      PayloadData: [
        { payload_type: 'Call', delete_after_days: 10, destroy_after_days: 30, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 },
      ],
    });
    expect(lengthenedTypes(before, after)).toEqual(['Call']);
    expect(lengthenedTypes(after, before)).toEqual([]);
    expect(lengthenedTypes(after, after)).toEqual([]);
    expect(objectLockFacts({ OBJECT_LOCK_MODE: 'COMPLIANCE' })).toMatchObject({ mode: 'COMPLIANCE', shorter_periods_apply_to: 'new_recordings' });
    expect(objectLockFacts({ OBJECT_LOCK_MODE: 'COMPLIANCE' }).message).toMatch(/not even the account owner/);
  });
});

describe('the object-retention-sync job', () => {
  it('extends the stored objects of the grown types page by page, restarting itself, and never shortens', async () => {
    const client = 'acme';
    const table = createMemoryTable([]);
    const blobs = memoryBlobs();
    const count = RETENTION_PAGE + 15;
    const base = Date.parse('2026-05-01T00:00:00Z');
    for (let n = 0; n < count; n += 1) {
      const reference = `01J${String(n).padStart(23, '0')}`;
      const time = new Date(base + n * 60_000).toISOString();
      const type = n === 0 ? 'SMS' : 'Call';
      await table.put({
        ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: 'dev-1' }),
        client,
        payload_reference: reference,
        payload_type: type,
        payload_state: 'Processed',
        device_reference: 'dev-1',
        payload_time: time,
      });
      await blobs.put('processed', payloadObjectKey(client, reference), Buffer.from('x'), { lock: { mode: 'COMPLIANCE', retainUntil: new Date(Date.parse(time) + 40 * DAY) } });
    }
    // One object already locked for longer than the new policy asks: left as it is.
    const longer = new Date(base + 500 * DAY);
    await blobs.setRetention('processed', payloadObjectKey(client, `01J${String(5).padStart(23, '0')}`), { mode: 'COMPLIANCE', retainUntil: longer });
    const stored = completePolicy({ PayloadData: [{ payload_type: 'Call', delete_after_days: 60, destroy_after_days: 70, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 }] });
    await table.put(retentionPolicyToItem(client, { client, ...stored }));
    const started: Array<Record<string, unknown>> = [];
    const deps = { table, blobs, clock: { now: () => now }, config: { OBJECT_LOCK_MODE: 'GOVERNANCE', LONG_JOB_BUDGET_SECONDS: 240, LONG_JOB_LEASE_MARGIN_SECONDS: 90 }, jobs: { start: async (_job: string, input: Record<string, unknown>) => void started.push({ job: _job, ...input }) } } as unknown as Dependencies;

    const first = await objectRetentionSyncJob(deps, { client, payload_types: ['Call'], sync_id: 's1' }, { pages: 1 });
    expect(first).toMatchObject({ outcome: 'more', extended: RETENTION_PAGE - 2 });
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ job: OBJECT_RETENTION_SYNC_JOB, client, payload_types: ['Call'], extended: RETENTION_PAGE - 2, sync_id: 's1' });
    const { job: _job, ...next } = started[0]!;
    // The sync's running-job marker carries the position the continuation starts from: a sweep resumes it there.
    const marker = () => table.get(keys.runningJob.key(client, 'object-retention-sync', 's1'));
    expect((await marker())?.input).toEqual(next);
    expect(await objectRetentionSyncJob(deps, next)).toMatchObject({ outcome: 'done', extended: count - 2 });
    expect(await marker()).toBeUndefined();

    const retentionOf = (n: number) => blobs.getRetention('processed', payloadObjectKey(client, `01J${String(n).padStart(23, '0')}`));
    expect(await retentionOf(1)).toEqual({ mode: 'COMPLIANCE', retainUntil: new Date(base + 60_000 + 70 * DAY) });
    expect(await retentionOf(count - 1)).toEqual({ mode: 'COMPLIANCE', retainUntil: new Date(base + (count - 1) * 60_000 + 70 * DAY) });
    expect((await retentionOf(0))?.retainUntil).toEqual(new Date(base + 40 * DAY));
    expect((await retentionOf(5))?.retainUntil).toEqual(longer);
    // Every type: the SMS follows its (default) period too; a second run finds nothing left to extend.
    expect(await objectRetentionSyncJob(deps, { client })).toMatchObject({ outcome: 'done', extended: 1 });
    expect(await objectRetentionSyncJob(deps, { client })).toMatchObject({ outcome: 'done', extended: 0 });
    await expect(objectRetentionSyncJob(deps, { client: 'Not A Client' })).rejects.toThrow();
  });
});
